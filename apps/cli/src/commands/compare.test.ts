import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copySuite, parleyIn, recordedGateSuite } from '../test-support/gate-suite.js';

let suite: string;
let runIds: { before: string; after: string };

/** Two runs of the gate suite, three repeats each; between them q_1's expected arguments change so that its score drops. */
beforeAll(async () => {
  suite = copySuite(await recordedGateSuite({ repeat: 3 }));
  const before = await parleyIn(suite, ['run', '.', '--repeat', '3', '--out', 'before']);
  expect(before.code).toBe(0);
  const file = join(suite, 'scenarios', 'q_1.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"k01":1,"k02":1,"k03":1,"k04":1,"k05":1', '"k01":3,"k02":3,"k03":3,"k04":3,"k05":3'));
  await parleyIn(suite, ['run', '.', '--repeat', '3', '--out', 'after']);
  const idOf = (out: string) => (JSON.parse(readFileSync(join(suite, out, 'report.json'), 'utf8')) as { run_id: string }).run_id;
  runIds = { before: idOf('before'), after: idOf('after') };
});

describe('parley compare A B', () => {
  it('compares two report folders: status changes, deltas with regressions first, and the paired test', async () => {
    const run = await parleyIn(suite, ['compare', 'before', 'after']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`compare before (${runIds.before}, 3 repeats) → after (${runIds.after}, 3 repeats) · suite gate_demo`);
    expect(run.stdout).toMatch(/Status changes \(1\):\n {2}q_1 {2}pass → fail {2}\(worse\)/);
    expect(run.stdout).toMatch(/q_1\s+tool_correctness\s+0\.85 ±0 \(n=3\)\s+0\.6 ±0 \(n=3\)\s+-0\.25/);
    const lines = run.stdout.split('\n');
    expect(lines.findIndex((line) => /^ {2}q_1 /.test(line))).toBeLessThan(lines.findIndex((line) => /^ {2}q_2 /.test(line)));
    expect(run.stdout).toMatch(/tool_correctness: 2 pairs, mean delta -0\.125 \[-0\.25, 0\], p = 1 \(exact, t = -1\.41\) → no significant change/);
  });

  it('compares stored runs by id prefix, with the same numbers', async () => {
    const byId = await parleyIn(suite, ['compare', runIds.before.slice(0, 17), runIds.after]);
    const byFolder = await parleyIn(suite, ['compare', 'before', 'after']);
    expect(byId.code).toBe(0);
    const body = (text: string) => text.split('\n').slice(1).join('\n');
    expect(body(byId.stdout)).toBe(body(byFolder.stdout));
    // A prefix is followed by the id it found; a whole id is said once.
    expect(byId.stdout.split('\n')[0]).toBe(`compare ${runIds.before.slice(0, 17)} (${runIds.before}, 3 repeats) → ${runIds.after} (3 repeats) · suite gate_demo`);
  });

  it('writes JSON with --format json, reproducibly for a seed', async () => {
    const first = await parleyIn(suite, ['compare', 'before', 'after', '--format', 'json', '--seed', '4']);
    const second = await parleyIn(suite, ['compare', 'before', 'after', '--format', 'json', '--seed', '4']);
    expect(first.stdout).toBe(second.stdout);
    const comparison = JSON.parse(first.stdout) as { deltas: Array<{ scenario_id: string; delta: number }>; tests: Array<{ metric: string; pairs: number }> };
    expect(comparison.deltas[0]).toMatchObject({ scenario_id: 'q_1' });
    expect(comparison.deltas[0]!.delta).toBeCloseTo(-0.25, 10);
    expect(comparison.tests).toEqual([expect.objectContaining({ metric: 'tool_correctness', pairs: 2 })]);
  });

  it('without repeats, says that the statistics need --repeat', async () => {
    const once = copySuite(suite);
    await parleyIn(once, ['run', '.', '--scenario', 'q_*', '--out', 'one']);
    await parleyIn(once, ['run', '.', '--scenario', 'q_*', '--out', 'two']);
    const run = await parleyIn(once, ['compare', 'one', 'two']);
    expect(run.stdout).toContain('Across scenarios: no significance test: both runs ran each scenario once; run both with --repeat N (e.g. 5) to tell noise from regression.');
  });

  it('exits 2 for something that is neither a report nor a run, and for runs of different suites', async () => {
    const missing = await parleyIn(suite, ['compare', 'before', 'nothing-here']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('"nothing-here" is not a report file, a report folder or a run id');
    const other = JSON.parse(readFileSync(join(suite, 'after', 'report.json'), 'utf8')) as { suite: string };
    other.suite = 'another_suite';
    writeFileSync(join(suite, 'other.json'), JSON.stringify(other));
    const suites = await parleyIn(suite, ['compare', 'before', 'other.json']);
    expect(suites.code).toBe(2);
    expect(suites.stderr).toContain('cannot compare runs of different suites');
  });
});
