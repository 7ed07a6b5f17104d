import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './test-support/example-copy.js';
import { copySuite, recordedGateSuite } from './test-support/gate-suite.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');

/** The real `parley` binary (the bundle `npm run build` makes), offline, no colour, no keys. */
function parley(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let recorded: string;
beforeAll(async () => {
  recorded = await recordedGateSuite();
});

function suiteWithBaselineScores(scores: Record<string, number>): string {
  const suite = copySuite(recorded);
  const exported = parley(suite, ['run', '.', '--export-baseline', 'baseline.json', '--out', 'export']);
  expect(exported.code, exported.stderr).toBe(0);
  const file = join(suite, 'baseline.json');
  const baseline = JSON.parse(readFileSync(file, 'utf8')) as { entries: Array<{ test_id: string; score: number }> };
  for (const entry of baseline.entries) entry.score = scores[entry.test_id] ?? entry.score;
  writeFileSync(file, JSON.stringify(baseline, null, 2));
  return suite;
}

describe('the parley binary gates against a baseline', () => {
  it('baseline 0.92, current 0.85, max_drop 0.05: fail, exit 1, the message gives the delta', () => {
    const suite = suiteWithBaselineScores({ q_1: 0.92 });
    const run = parley(suite, ['run', '.', '--baseline', 'baseline.json', '--out', 'gated']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ q_1 (fail)');
    expect(run.stdout.replace(/\s+/g, ' ')).toContain('regressed against the baseline: baseline 0.92, current 0.85, delta -0.07 exceeds the allowed drop 0.05');
    expect(run.stdout).toContain('baseline baseline.json');
    expect(run.stdout).toMatch(/1 regressed/);
  });

  it('baseline 0.80, current 0.82: pass, exit 0', () => {
    const suite = suiteWithBaselineScores({ q_2: 0.8 });
    const run = parley(suite, ['run', '.', '--baseline', 'baseline.json', '--out', 'gated']);
    expect(run.code, run.stdout).toBe(0);
    const report = JSON.parse(readFileSync(join(suite, 'gated', 'report.json'), 'utf8')) as { results: Array<{ scenario_id: string; status: string; metrics: Array<{ reason: string }> }> };
    const q2 = report.results.find((result) => result.scenario_id === 'q_2')!;
    expect(q2.status).toBe('pass');
    expect(q2.metrics[0]!.reason).toContain('within the baseline: baseline 0.8, current 0.82, delta +0.02');
  });
});
