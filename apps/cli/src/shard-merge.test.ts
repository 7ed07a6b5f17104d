import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyExample } from './test-support/example-copy.js';
import { parleyIn } from './test-support/gate-suite.js';

interface ReportJson {
  run_id: string;
  exit_code: number;
  status: string;
  counts: Record<string, number>;
  selection?: { total: number; selected: number; shard?: { index: number; total: number } };
  merged_from?: Array<{ run_id: string; shard?: string }>;
  results: Array<{ scenario_id: string; status: string; gate: string; reason: string }>;
}

function report(suite: string, out: string): ReportJson {
  return JSON.parse(readFileSync(join(suite, out, 'report.json'), 'utf8')) as ReportJson;
}

function statuses(value: ReportJson): Record<string, string> {
  return Object.fromEntries(value.results.map((result) => [result.scenario_id, result.status]));
}

/** The booking example with one blocking scenario made to fail, so the gate has something to say. */
function failingBooking(): string {
  const suite = copyExample('booking');
  const file = join(suite, 'scenarios', 'spa_price_question_sw.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('forbidden: ["reservation"]', 'forbidden: ["reservation", "discount"]'));
  return suite;
}

describe('--shard I/N and merge-reports', () => {
  it('3 shards of the booking example, merged, give the statuses and exit code of one unsharded run', async () => {
    const suite = failingBooking();
    const whole = await parleyIn(suite, ['run', '.', '--out', 'whole']);
    expect(whole.code).toBe(1);

    const shardIds: string[][] = [];
    for (const index of [1, 2, 3]) {
      const shard = await parleyIn(suite, ['run', '.', '--shard', `${index}/3`, '--out', `shard-${index}`]);
      expect([0, 1]).toContain(shard.code);
      const shardReport = report(suite, `shard-${index}`);
      expect(shardReport.selection).toMatchObject({ total: 8, shard: { index, total: 3 } });
      shardIds.push(shardReport.results.map((result) => result.scenario_id));
    }
    // A partition: every scenario in exactly one shard.
    expect(shardIds.flat().sort()).toEqual(Object.keys(statuses(report(suite, 'whole'))).sort());
    expect(shardIds.every((ids) => ids.length < 8)).toBe(true);

    const merged = await parleyIn(suite, ['merge-reports', 'shard-1', 'shard-2', 'shard-3', '--out', 'merged']);
    expect(merged.code).toBe(whole.code);
    const mergedReport = report(suite, 'merged');
    expect(statuses(mergedReport)).toEqual(statuses(report(suite, 'whole')));
    expect(mergedReport.counts).toEqual(report(suite, 'whole').counts);
    expect(mergedReport.status).toBe(report(suite, 'whole').status);
    expect(mergedReport.exit_code).toBe(1);
    expect(mergedReport.merged_from?.map((shard) => shard.shard)).toEqual(['1/3', '2/3', '3/3']);
    expect(merged.stdout).toContain('✗ spa_price_question_sw (fail)');
    expect(merged.stdout).toContain('Merged from 3 shard reports.');

    const junit = readFileSync(join(suite, 'merged', 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(8);
    expect(junit).toMatch(/<testsuites name="parley" tests="8" failures="1" errors="0" skipped="0"/);
    expect(readFileSync(join(suite, 'merged', 'summary.md'), 'utf8')).toMatch(/^## Parley: FAIL — 1 of 7 blocking scenarios failed/);

    const { openStore } = await import('@parley/store');
    const store = openStore(join(suite, '.parley', 'parley.db'));
    try {
      expect(store.getRun(mergedReport.run_id)).toMatchObject({ exit_code: 1, finished: true, scenario_count: 8 });
    } finally {
      store.close();
    }
  });

  it('a passing suite merges to exit 0 and appends the merged summary to $GITHUB_STEP_SUMMARY', async () => {
    const suite = copyExample('booking');
    for (const index of [1, 2]) await parleyIn(suite, ['run', '.', '--shard', `${index}/2`, '--out', `s${index}`]);
    const summaryFile = join(suite, 'step-summary.md');
    const merged = await parleyIn(suite, ['merge-reports', 's1', 's2', '--out', 'merged'], { GITHUB_STEP_SUMMARY: summaryFile });
    expect(merged.code).toBe(0);
    expect(readFileSync(summaryFile, 'utf8')).toMatch(/^## Parley: PASS — all 7 blocking scenarios passed/m);
  });

  it('merge-reports --export-baseline writes the baseline the unsharded run would have written', async () => {
    const suite = copyExample('booking');
    await parleyIn(suite, ['run', '.', '--export-baseline', 'whole.json', '--out', 'whole']);
    for (const index of [1, 2, 3]) await parleyIn(suite, ['run', '.', '--shard', `${index}/3`, '--out', `s${index}`]);
    const merged = await parleyIn(suite, ['merge-reports', 's1', 's2', 's3', '--out', 'merged', '--export-baseline', 'merged.json']);
    expect(merged.code).toBe(0);
    // 8 tool_correctness scores and 19 judge verdicts (fluency, conversation_judge, booking_slot_consistency).
    expect(merged.stdout).toContain('baseline written: merged.json (37 entries)');
    const entries = (file: string) => (JSON.parse(readFileSync(join(suite, file), 'utf8')) as { entries: unknown[]; config_fingerprint: string });
    expect(entries('merged.json').entries).toEqual(entries('whole.json').entries);
    expect(entries('merged.json').config_fingerprint).toBe(entries('whole.json').config_fingerprint);
    const gated = await parleyIn(suite, ['run', '.', '--baseline', 'merged.json', '--out', 'gated']);
    expect(gated.code).toBe(0);
    expect(gated.stderr).not.toContain('warning');
  });

  it('refuses shards of different suites, of different configurations, and an incomplete set', async () => {
    const booking = copyExample('booking');
    const municipal = copyExample('municipal');
    await parleyIn(booking, ['run', '.', '--shard', '1/2', '--out', 's1']);
    await parleyIn(booking, ['run', '.', '--shard', '2/2', '--out', 's2']);
    await parleyIn(municipal, ['run', '.', '--shard', '2/2', '--out', join(booking, 'other-suite')]);

    const suites = await parleyIn(booking, ['merge-reports', 's1', 'other-suite']);
    expect(suites.code).toBe(2);
    expect(suites.stderr).toContain('other-suite: a report of suite "thaba_connect", not "ratiba_booking"');

    const file = join(booking, 'scenarios', 'spa_reschedule_sw.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('tags: [', 'tags: [changed, '));
    await parleyIn(booking, ['run', '.', '--shard', '2/2', '--out', 's2-changed']);
    const fingerprints = await parleyIn(booking, ['merge-reports', 's1', 's2-changed']);
    expect(fingerprints.code).toBe(2);
    expect(fingerprints.stderr).toContain('s2-changed: another configuration');

    const incomplete = await parleyIn(booking, ['merge-reports', 's1']);
    expect(incomplete.code).toBe(2);
    expect(incomplete.stderr).toContain('missing shard 2/2');

    const twice = await parleyIn(booking, ['merge-reports', 's1', 's1', 's2']);
    expect(twice.code).toBe(2);
    expect(twice.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: s1: the same run \(\d{8}-\d{6}-[0-9a-f]{6}\) as s1: give each shard's report once$/)]);

    const none = await parleyIn(booking, ['merge-reports', 'no-such-folder']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('cannot read the report: file not found');
  });

  it('refuses a malformed --shard with exit 2', async () => {
    const run = await parleyIn(copyExample('booking'), ['run', '.', '--shard', '4/3']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--shard must be I/N with 1 ≤ I ≤ N');
  });
});
