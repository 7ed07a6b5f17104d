import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copySuite, parleyIn, recordedGateSuite } from './test-support/gate-suite.js';

interface BaselineJson {
  schema_version: number;
  suite: string;
  parley_version: string;
  config_fingerprint: string;
  entries: Array<{ test_id: string; metric: string; score: number; meta?: Record<string, unknown> }>;
}

interface ReportJson {
  exit_code: number;
  status: string;
  baseline?: Record<string, unknown>;
  warnings?: Array<{ kind: string; message: string }>;
  results: Array<{ scenario_id: string; status: string; reason: string; metrics: Array<{ metric: string; passed: boolean; reason: string; details?: Record<string, unknown> }> }>;
}

let recorded: string;
beforeAll(async () => {
  recorded = await recordedGateSuite();
});

/** A fresh copy of the recorded suite with a baseline exported from a replay of it. */
async function suiteWithBaseline(edit: (baseline: BaselineJson) => void = () => {}): Promise<string> {
  const suite = copySuite(recorded);
  const exported = await parleyIn(suite, ['run', '.', '--export-baseline', 'baseline.json', '--out', 'export']);
  expect(exported.code, exported.stderr).toBe(0);
  const file = join(suite, 'baseline.json');
  const baseline = JSON.parse(readFileSync(file, 'utf8')) as BaselineJson;
  edit(baseline);
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
  return suite;
}

function setScore(baseline: BaselineJson, scenario: string, score: number): void {
  baseline.entries.find((entry) => entry.test_id === scenario)!.score = score;
}

function report(suite: string, out = 'gated'): ReportJson {
  return JSON.parse(readFileSync(join(suite, out, 'report.json'), 'utf8')) as ReportJson;
}

function resultOf(suite: string, id: string, out = 'gated') {
  return report(suite, out).results.find((result) => result.scenario_id === id)!;
}

describe('--export-baseline', () => {
  it('writes schema_version 1 with entries only for scored metrics, sorted, and says so', async () => {
    const suite = copySuite(recorded);
    const run = await parleyIn(suite, ['run', '.', '--export-baseline', 'baseline.json', '--out', 'export']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('baseline written: baseline.json (2 entries)');
    const text = readFileSync(join(suite, 'baseline.json'), 'utf8');
    const baseline = JSON.parse(text) as BaselineJson;
    expect(baseline).toMatchObject({ schema_version: 1, suite: 'gate_demo', parley_version: '0.1.0' });
    expect(baseline.config_fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    // content_signals (greeting, smalltalk) only pass or fail: no entries.
    expect(baseline.entries.map((entry) => [entry.test_id, entry.metric, entry.score])).toEqual([
      ['q_1', 'tool_correctness', 0.85],
      ['q_2', 'tool_correctness', 0.82],
    ]);
    expect(baseline.entries[0]!.meta).toEqual({ metric_version: '1.0.0' });
    const again = copySuite(recorded);
    await parleyIn(again, ['run', '.', '--export-baseline', 'baseline.json', '--out', 'export']);
    const normalise = (value: string) => value.replace(/"created_at": "[^"]+"/, '');
    expect(normalise(readFileSync(join(again, 'baseline.json'), 'utf8'))).toBe(normalise(text));
  });
});

describe('--baseline: a drop beyond max_drop fails, a rise passes', () => {
  it('scenario 1: baseline 0.92, current 0.85, max_drop 0.05 fails with exit 1 and a message with the delta', async () => {
    const suite = await suiteWithBaseline((baseline) => setScore(baseline, 'q_1', 0.92));
    const run = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json', '--out', 'gated']);
    expect(run.code).toBe(1);
    const message = 'regressed against the baseline: baseline 0.92, current 0.85, delta -0.07 exceeds the allowed drop 0.05';
    expect(run.stdout).toContain('✗ q_1 (fail)');
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(message);
    const q1 = resultOf(suite, 'q_1');
    expect(q1.status).toBe('fail');
    expect(q1.reason).toContain(message);
    expect(report(suite).baseline).toMatchObject({ file: 'baseline.json', compared: 2, regressions: 1, missing: 0, fingerprint_matches: true });
    const summary = readFileSync(join(suite, 'gated', 'summary.md'), 'utf8');
    expect(summary).toContain('| `q_1` | tool_correctness | 0.92 | 0.85 | -0.07 | 0.05 | — | regression |');
  });

  it('scenario 2: baseline 0.80, current 0.82 passes with exit 0', async () => {
    const suite = await suiteWithBaseline((baseline) => setScore(baseline, 'q_2', 0.8));
    const run = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json', '--out', 'gated']);
    expect(run.code, run.stdout).toBe(0);
    const q2 = resultOf(suite, 'q_2');
    expect(q2.status).toBe('pass');
    expect(q2.metrics[0]!.reason).toContain('within the baseline: baseline 0.8, current 0.82, delta +0.02 (allowed drop 0.05)');
    expect(report(suite).baseline).toMatchObject({ regressions: 0, improvements: 1 });
  });
});

describe('--baseline: thresholds', () => {
  it('min_floor fails a score below it even when the drop is within max_drop', async () => {
    const base = copySuite(recorded);
    const file = join(base, 'scenarios', 'q_1.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}    thresholding: { min_floor: 0.86 }\n`);
    const exported = await parleyIn(base, ['run', '.', '--export-baseline', 'baseline.json', '--out', 'export']);
    expect(exported.code).toBe(0);
    const baselineFile = join(base, 'baseline.json');
    const baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as BaselineJson;
    setScore(baseline, 'q_1', 0.87); // a drop of 0.02: within max_drop 0.05
    writeFileSync(baselineFile, JSON.stringify(baseline));
    const run = await parleyIn(base, ['run', '.', '--baseline', 'baseline.json', '--out', 'gated']);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain('another configuration');
    const q1 = resultOf(base, 'q_1');
    expect(q1.status).toBe('fail');
    expect(q1.reason).toContain('below min_floor 0.86: baseline 0.87, current 0.85, delta -0.02 (allowed drop 0.05)');
  });

  it('a per-expectation max_drop overrides the suite default', async () => {
    const base = copySuite(recorded);
    const file = join(base, 'scenarios', 'q_1.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}    thresholding: { max_drop: 0.1 }\n`);
    await parleyIn(base, ['run', '.', '--export-baseline', 'baseline.json', '--out', 'export']);
    const baselineFile = join(base, 'baseline.json');
    const baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as BaselineJson;
    setScore(baseline, 'q_1', 0.92);
    setScore(baseline, 'q_2', 0.9);
    writeFileSync(baselineFile, JSON.stringify(baseline));
    const run = await parleyIn(base, ['run', '.', '--baseline', 'baseline.json', '--out', 'gated']);
    expect(resultOf(base, 'q_1').status).toBe('pass'); // -0.07 within its own 0.1
    expect(resultOf(base, 'q_2').status).toBe('fail'); // -0.08 beyond the suite's 0.05
    expect(run.code).toBe(1);
  });

  it('absolute mode keeps the metric threshold and only reports the delta', async () => {
    const suite = await suiteWithBaseline((baseline) => setScore(baseline, 'q_1', 0.99));
    const yaml = join(suite, 'parley.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('mode: relative', 'mode: absolute'));
    const run = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json', '--out', 'gated']);
    expect(resultOf(suite, 'q_1').status).toBe('pass');
    expect(resultOf(suite, 'q_1').metrics[0]!.reason).toContain('absolute thresholding, the baseline does not gate: baseline 0.99, current 0.85');
    expect(run.stderr).toContain('was made from another configuration'); // parley.yaml changed after the export
    expect(run.code).toBe(0);
  });
});

describe('--baseline: missing entries and --strict', () => {
  it('a missing entry warns with the exact command that creates it (exit 0), and fails under --strict (exit 1)', async () => {
    const suite = await suiteWithBaseline((baseline) => {
      baseline.entries = baseline.entries.filter((entry) => entry.test_id !== 'q_2');
    });
    const run = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json', '--out', 'gated']);
    expect(run.code).toBe(0);
    const q2 = resultOf(suite, 'q_2');
    expect(q2.status).toBe('warn');
    expect(q2.reason).toContain('no baseline entry for scenario "q_2", metric "tool_correctness"; create it with: parley run . --export-baseline baseline.json');
    expect(report(suite).baseline).toMatchObject({ missing: 1 });

    const strict = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json', '--strict', '--out', 'strict']);
    expect(strict.code).toBe(1);
    const strictQ2 = resultOf(suite, 'q_2', 'strict');
    expect(strictQ2.status).toBe('fail');
    expect(strictQ2.reason).toContain('a missing entry fails under --strict');
  });
});

describe('--baseline: compatibility', () => {
  it('--baseline together with --export-baseline is exit 2', async () => {
    const suite = copySuite(recorded);
    const run = await parleyIn(suite, ['run', '.', '--baseline', 'a.json', '--export-baseline', 'b.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--baseline and --export-baseline cannot be used together');
  });

  it('a folder given as the baseline (the suite folder) suggests a baseline file in it, and --export-baseline refuses a folder before running', async () => {
    const suite = copySuite(recorded);
    mkdirSync(join(suite, 'booking'));
    const gated = await parleyIn(suite, ['run', '.', '--baseline', 'booking']);
    expect(gated.code).toBe(2);
    expect(gated.stderr).toContain('error: booking: cannot read the baseline: is a folder, not a file; create it with: parley run . --export-baseline booking/baseline.json');
    const exported = await parleyIn(suite, ['run', '.', '--export-baseline', 'booking', '--out', 'folder']);
    expect(exported.code).toBe(2);
    expect(exported.stderr).toContain('error: --export-baseline booking is a folder; give the baseline file, e.g. --export-baseline booking/baseline.json');
    // Refused in the plan: nothing ran.
    expect(existsSync(join(suite, 'folder'))).toBe(false);
  });

  it('another schema_version is exit 2 with how to regenerate, at its line', async () => {
    const suite = await suiteWithBaseline((baseline) => {
      baseline.schema_version = 2;
    });
    const run = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: baseline\.json:2:\d+: this baseline has schema_version 2, but this Parley reads schema_version 1; regenerate it with: parley run \. --export-baseline baseline\.json or upgrade Parley/m);
  });

  it('a baseline of another suite is exit 2 with how to regenerate', async () => {
    const suite = await suiteWithBaseline((baseline) => {
      baseline.suite = 'ratiba_booking';
    });
    const run = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/baseline\.json:3:\d+: this baseline is of suite "ratiba_booking", but the run is of suite "gate_demo".*regenerate it with: parley run \. --export-baseline baseline\.json/);
  });

  it('an unreadable or invalid baseline is exit 2 naming the file', async () => {
    const suite = copySuite(recorded);
    const missing = await parleyIn(suite, ['run', '.', '--baseline', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json: cannot read the baseline: file not found');
    writeFileSync(join(suite, 'broken.json'), '{"schema_version": 1, "suite": "gate_demo", "entries": [}');
    const broken = await parleyIn(suite, ['run', '.', '--baseline', 'broken.json']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json:1:\d+: invalid JSON/);
  });

  it('a fingerprint mismatch warns (exit 0) and fails under --strict (exit 1)', async () => {
    const suite = await suiteWithBaseline((baseline) => {
      baseline.config_fingerprint = `sha256:${'0'.repeat(64)}`;
    });
    const run = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json', '--out', 'gated']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warning: baseline\.json was made from another configuration \(config_fingerprint sha256:000000000000…, this run sha256:[0-9a-f]{12}…\)/m);
    expect(report(suite).warnings).toEqual([expect.objectContaining({ kind: 'baseline_fingerprint_mismatch', fails_under_strict: true })]);
    expect(report(suite).baseline).toMatchObject({ fingerprint_matches: false });
    const strict = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json', '--strict', '--out', 'strict']);
    expect(strict.code).toBe(1);
    expect(report(suite, 'strict').status).toBe('warn');
  });

  it('--scenario and --tag do not change the fingerprint: a baseline of the whole suite gates part of it, also under --strict', async () => {
    const suite = await suiteWithBaseline();
    for (const selection of [['--scenario', 'q_1'], ['--scenario', 'q_*']]) {
      const run = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json', '--strict', ...selection, '--out', 'selected']);
      expect(run.stderr).not.toContain('another configuration');
      expect(report(suite, 'selected').baseline).toMatchObject({ fingerprint_matches: true });
      expect(run.code, run.stderr).toBe(0);
    }
  });

  it('a parley_version mismatch warns and never fails, not even under --strict', async () => {
    const suite = await suiteWithBaseline((baseline) => {
      baseline.parley_version = '0.0.9';
    });
    const run = await parleyIn(suite, ['run', '.', '--baseline', 'baseline.json', '--strict', '--scenario', 'q_*', '--out', 'gated']);
    expect(run.stderr).toContain('warning: baseline.json was written by Parley 0.0.9, this is Parley 0.1.0');
    expect(report(suite).warnings?.map((warning) => warning.kind)).toContain('baseline_version_mismatch');
  });
});
