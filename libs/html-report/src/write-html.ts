import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CalibrationReport, PairSource } from '@parley/calibration';
import { writeFileAtomically } from '@parley/core';
import type { RunReport } from '@parley/reports';
import { calibrationPageData } from './calibration-page-data.js';
import { htmlDocument, htmlDocumentParts } from './html-document.js';
import { compressJsonArray, compressPieces } from './embedded-data.js';
import { runPageParts } from './run-page-data.js';

/** The run's page: one self-contained HTML file made from its report.json. */
export function renderRunHtml(report: RunReport): string {
  return [...runHtmlParts(report)].join('');
}

/** Writes `report.html` into `outDir` (beside report.json; created when missing), atomically; returns its path. */
export function writeRunHtml(outDir: string, report: RunReport): string {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'report.html');
  writeFileAtomically(file, runHtmlParts(report));
  return file;
}

/**
 * The run's page in pieces, written one after the other: the detail chunks are kept compressed
 * (bytes) until their turn and only then turned into base64 text, so the page is never one
 * string and never all its chunks' text at once.
 */
function* runHtmlParts(report: RunReport): Generator<string> {
  const { data, chunks } = runPageParts(report, compressJsonArray);
  const encodedChunks = (function* () {
    for (const [index, chunk] of chunks.entries()) {
      yield chunk.toString('base64');
      chunks[index] = EMPTY; // written: its bytes can go
    }
  })();
  let first = true;
  for (const part of htmlDocumentParts({ title: `${report.suite} · ${report.status} · Parley run ${report.run_id}`, encodedData: compressPieces(data).toString('base64'), encodedChunks })) {
    yield first ? part : `\n${part}`;
    first = false;
  }
}

const EMPTY = Buffer.alloc(0);

/** The calibration report's page (see {@link calibrationPageData} for `source`). */
function renderCalibrationHtml(report: CalibrationReport, source: PairSource | string): string {
  const data = calibrationPageData(report, source);
  return htmlDocument({ title: `Judge calibration ${data.date} · gate ${report.gate.passed ? 'PASS' : 'FAIL'} · Parley`, data: JSON.stringify(data) });
}

/** Writes `<reportsDir>/<date>.html` beside the report's `.md` and `.json`; returns its path. */
export function writeCalibrationHtml(reportsDir: string, report: CalibrationReport, source: PairSource | string): string {
  mkdirSync(reportsDir, { recursive: true });
  const file = join(reportsDir, `${report.generated_at.slice(0, 10)}.html`);
  writeFileAtomically(file, renderCalibrationHtml(report, source));
  return file;
}
