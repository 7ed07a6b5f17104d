import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CalibrationReport, PairSource } from '@parley/calibration';
import { writeFileAtomically } from '@parley/core';
import type { RunReport } from '@parley/reports';
import { calibrationPageData } from './calibration-page-data.js';
import { htmlDocument, htmlDocumentParts } from './html-document.js';
import { compressJsonArray, compressPieces } from './embedded-data.js';
import { runPageSteps } from './run-page-data.js';

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
 * The run's page in pieces, written one after the other: each detail chunk is compressed,
 * turned into base64 text and written as soon as it is complete, then let go; the page's data
 * (the case list) follows them. The page is never one string and its chunks never all held.
 */
function* runHtmlParts(report: RunReport): Generator<string> {
  const steps = runPageSteps(report, compressJsonArray);
  let data: string[] = [];
  const encodedChunks = (function* () {
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done === true) {
        data = step.value;
        return;
      }
      yield step.value.toString('base64');
    }
  })();
  const encodedData = (): string => compressPieces(data).toString('base64');
  let first = true;
  for (const part of htmlDocumentParts({ title: `${report.suite} · ${report.status} · Parley run ${report.run_id}`, encodedData, encodedChunks })) {
    yield first ? part : `\n${part}`;
    first = false;
  }
}

/** The calibration report's page (see {@link calibrationPageData} for `source`). */
export function renderCalibrationHtml(report: CalibrationReport, source: PairSource | string): string {
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
