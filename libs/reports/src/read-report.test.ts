import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { readReportFile } from './read-report.js';
import { runInfo, sampleResults } from './test-support/sample-run.js';
import { writeReports } from './write-reports.js';

function writtenReport(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-read-report-'));
  writeReports(folder, buildReport(runInfo, sampleResults()));
  return folder;
}

describe('readReportFile', () => {
  it('reads back what writeReports wrote, from the folder or the file', () => {
    const folder = writtenReport();
    const original = buildReport(runInfo, sampleResults());
    expect(readReportFile(folder)).toEqual(original);
    expect(readReportFile(join(folder, 'report.json'))).toEqual(original);
  });

  it('refuses another schema_version first, saying what to do', () => {
    const folder = writtenReport();
    const file = join(folder, 'report.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"schema_version": 1', '"schema_version": 7'));
    expect(() => readReportFile(folder)).toThrow(/report\.json:2:\d+: this report has schema_version 7; this Parley reads report schema_version 1/);
  });

  it('names the place of a schema problem and of broken JSON', () => {
    const folder = writtenReport();
    const file = join(folder, 'report.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"mode": "replay"', '"mode": "fast"'));
    expect(() => readReportFile(folder)).toThrow(/report\.json:\d+:\d+: .*mode/);
    writeFileSync(file, '{"schema_version": 1,');
    expect(() => readReportFile(file)).toThrow(/invalid JSON/);
  });

  it('names the line and column of a byte that is not UTF-8 (a report saved as Latin-1)', () => {
    const folder = writtenReport();
    const file = join(folder, 'report.json');
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf('"mode": "replay"');
    writeFileSync(file, Buffer.concat([Buffer.from(text.slice(0, at + 9), 'utf8'), Buffer.from([0xe9]), Buffer.from(text.slice(at + 9), 'utf8')]));
    const line = text.slice(0, at).split('\n').length;
    const column = at - text.lastIndexOf('\n', at - 1) + 9;
    expect(() => readReportFile(folder)).toThrow(`${file}:${line}:${column}: cannot read the report: the file is not UTF-8 text (byte 0xE9); save it as UTF-8`);
  });

  it('says when there is no report', () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-no-report-'));
    expect(() => readReportFile(folder)).toThrow(/report\.json: cannot read the report: file not found/);
  });
});
