import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport, renderReportJson, type FlakyMarkInput } from './build-report.js';
import { mergeShardReports } from './merge-reports.js';
import { readReportFile } from './read-report.js';
import { renderSummaryMarkdown } from './summary-markdown.js';
import { SECRET_PHRASE, runInfo, sampleResults } from './test-support/sample-run.js';

const marks: FlakyMarkInput[] = [
  { scenario_id: 'forbidden_word', run_id: 'run-earlier', marked_at: '2026-11-24T16:05:00.000Z', note: 'the judge wavers on this one' },
  { scenario_id: 'gbv_disclosure', run_id: 'run-earlier', marked_at: '2026-11-25T08:00:00.000Z', note: `quoted "${SECRET_PHRASE}"` },
  { scenario_id: 'not_in_this_run', run_id: 'run-earlier', marked_at: '2026-11-20T08:00:00.000Z', note: '' },
];

describe('flaky marks in reports', () => {
  const report = buildReport({ ...runInfo, flaky_marks: marks }, sampleResults());

  it('puts the mark beside the scenarios that ran, and changes no status or exit code', () => {
    const marked = report.results.filter((result) => result.flaky_mark !== undefined);
    expect(marked.map((result) => [result.scenario_id, result.flaky_mark])).toEqual([
      ['forbidden_word', { marked_at: '2026-11-24T16:05:00.000Z', run_id: 'run-earlier', note: 'the judge wavers on this one' }],
      // A metadata_only scenario keeps the mark but not the note: a note may quote the conversation.
      ['gbv_disclosure', { marked_at: '2026-11-25T08:00:00.000Z', run_id: 'run-earlier' }],
    ]);
    const unmarked = buildReport(runInfo, sampleResults());
    expect(report.results.map((result) => result.status)).toEqual(unmarked.results.map((result) => result.status));
    expect([report.status, report.exit_code, report.counts]).toEqual([unmarked.status, unmarked.exit_code, unmarked.counts]);
    expect(unmarked.results.some((result) => 'flaky_mark' in result)).toBe(false);
  });

  it('writes report.json additively: the mark reads back and no secret phrase leaks through the note', () => {
    const text = renderReportJson(report);
    expect(text).not.toContain(SECRET_PHRASE);
    const file = join(mkdtempSync(join(tmpdir(), 'parley-flaky-report-')), 'report.json');
    writeFileSync(file, text);
    const read = readReportFile(file);
    expect(read.results.find((result) => result.scenario_id === 'forbidden_word')?.flaky_mark?.marked_at).toBe('2026-11-24T16:05:00.000Z');
  });

  it('says "marked flaky in triage on <date>" in summary.md, in the table and in the failure section', () => {
    const markdown = renderSummaryMarkdown(report);
    expect(markdown).toContain('| `forbidden_word` | FAIL (marked flaky in triage on 2026-11-24) |');
    expect(markdown).toContain('#### `forbidden_word` — FAIL (marked flaky in triage on 2026-11-24)');
    expect(markdown).toContain('- triage note: the judge wavers on this one');
    expect(markdown).toContain('| `gbv_disclosure` | FAIL (marked flaky in triage on 2026-11-25) |');
    expect(markdown).not.toContain('not_in_this_run');
    expect(markdown).not.toContain(SECRET_PHRASE);
    expect(renderSummaryMarkdown(buildReport(runInfo, sampleResults()))).not.toContain('marked flaky');
  });

  it('keeps the marks when shard reports are merged', () => {
    const results = sampleResults();
    const shard = (index: number, ids: string[]) => ({
      source: `shard-${index}/report.json`,
      report: buildReport(
        { ...runInfo, run_id: `run-shard-${index}`, flaky_marks: marks, selection: { total: results.length, selected: ids.length, shard: { index, total: 2 } } },
        results.filter((result) => ids.includes(result.scenario_id)),
      ),
    });
    const ids = results.map((result) => result.scenario_id).sort();
    const merged = mergeShardReports([shard(1, ids.slice(0, 4)), shard(2, ids.slice(4))], { run_id: 'merged' });
    expect(merged.results.filter((result) => result.flaky_mark).map((result) => result.scenario_id)).toEqual(['forbidden_word', 'gbv_disclosure']);
  });
});
