import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../set-file/atomic-write.js';
import type { CalibrationReport } from './calibration-report.js';

/** Writes `<reports>/<date>.md` and `.json` (a second report on the same day replaces the first). */
export function writeReportFiles(reportsDir: string, report: CalibrationReport, markdown: string): { markdown: string; json: string } {
  mkdirSync(reportsDir, { recursive: true });
  const date = report.generated_at.slice(0, 10);
  const files = { markdown: join(reportsDir, `${date}.md`), json: join(reportsDir, `${date}.json`) };
  writeFileAtomically(files.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileAtomically(files.markdown, markdown);
  return files;
}
