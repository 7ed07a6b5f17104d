import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isConfigError } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { buildReport, renderReportJson } from './build-report.js';
import { renderJunit } from './junit.js';
import { renderSummaryMarkdown } from './summary-markdown.js';
import { SECRET_PHRASE, runInfo, sampleResults } from './test-support/sample-run.js';
import { writeReports } from './write-reports.js';

const report = buildReport(runInfo, sampleResults());

function temporaryDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'parley-reports-'));
}

describe('writeReports', () => {
  it('writes the three reports into a new nested directory and returns their paths', () => {
    const outDir = join(temporaryDirectory(), '.parley', 'runs', report.run_id);
    const written = writeReports(outDir, report);
    expect(written).toEqual({
      reportJson: join(outDir, 'report.json'),
      junitXml: join(outDir, 'junit.xml'),
      summaryMarkdown: join(outDir, 'summary.md'),
    });
    expect(readFileSync(written.reportJson, 'utf8')).toBe(renderReportJson(report));
    expect(readFileSync(written.junitXml, 'utf8')).toBe(renderJunit(report));
    expect(readFileSync(written.summaryMarkdown, 'utf8')).toBe(renderSummaryMarkdown(report));
    expect(JSON.parse(readFileSync(written.reportJson, 'utf8'))).toMatchObject({ schema_version: 1, run_id: report.run_id });
  });

  it('keeps metadata_only content out of every file it writes', () => {
    const written = writeReports(temporaryDirectory(), report);
    for (const path of [written.reportJson, written.junitXml, written.summaryMarkdown]) {
      expect(readFileSync(path, 'utf8')).not.toContain(SECRET_PHRASE);
    }
  });

  it('appends the summary to the GitHub step summary, never overwriting it', () => {
    const directory = temporaryDirectory();
    const stepSummary = join(directory, 'step_summary.md');
    writeFileSync(stepSummary, '# Earlier step\nlint passed');
    const written = writeReports(join(directory, 'out'), report, { githubStepSummary: stepSummary });
    writeReports(join(directory, 'out2'), report, { githubStepSummary: stepSummary });
    const summary = renderSummaryMarkdown(report);
    expect(written.githubStepSummary).toBe(stepSummary);
    expect(readFileSync(stepSummary, 'utf8')).toBe(`# Earlier step\nlint passed\n\n${summary}\n${summary}`);
  });

  it('creates the step summary file when it does not exist, and ignores an empty path', () => {
    const directory = temporaryDirectory();
    const stepSummary = join(directory, 'fresh.md');
    writeReports(join(directory, 'out'), report, { githubStepSummary: stepSummary });
    expect(readFileSync(stepSummary, 'utf8')).toBe(renderSummaryMarkdown(report));
    expect(writeReports(join(directory, 'out'), report, { githubStepSummary: '' })).not.toHaveProperty('githubStepSummary');
  });

  it('reports an output path that cannot be a directory as a ConfigError naming it', () => {
    const directory = temporaryDirectory();
    const blocker = join(directory, 'not-a-directory');
    writeFileSync(blocker, '');
    let thrown: unknown;
    try {
      writeReports(join(blocker, 'out'), report);
    } catch (error) {
      thrown = error;
    }
    expect(isConfigError(thrown)).toBe(true);
    expect(String(thrown)).toContain(join(blocker, 'out'));
  });

  it('writes byte-identical files for the same run', () => {
    const first = writeReports(temporaryDirectory(), buildReport(runInfo, sampleResults()));
    const second = writeReports(temporaryDirectory(), buildReport(runInfo, sampleResults()));
    for (const key of ['reportJson', 'junitXml', 'summaryMarkdown'] as const) {
      expect(readFileSync(second[key], 'utf8')).toBe(readFileSync(first[key], 'utf8'));
    }
  });
});
