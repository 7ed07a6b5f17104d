import { describe, expect, it } from 'vitest';
import { copyExample } from './test-support/example-copy.js';
import { parleyIn } from './test-support/gate-suite.js';
import { ZURI_SUITE, writeSuite } from './test-support/zuri-suite.js';

/** `--budget-per-shard` used to be ignored without a word when it could do nothing. */
describe('--budget-per-shard where it would do nothing', () => {
  it('is refused (exit 2) without --shard, saying to add --shard or leave it out', async () => {
    const suite = copyExample('booking'); // settings.budget_usd: 1
    const run = await parleyIn(suite, ['run', '.', '--budget-per-shard']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--budget-per-shard goes with --shard I/N');
    expect(run.stderr).toContain('add --shard or leave out --budget-per-shard');
  });

  it('is refused (exit 2) under --shard when no budget is set anywhere, naming where one is set', async () => {
    const suite = writeSuite(ZURI_SUITE); // no settings.budget_usd
    const run = await parleyIn(suite, ['run', '.', '--shard', '1/2', '--budget-per-shard']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no budget is set; give --budget USD (or PARLEY_BUDGET_USD, settings.budget_usd) or leave out --budget-per-shard');
    // A budget from the environment is one.
    const fromEnv = await parleyIn(suite, ['run', '.', '--shard', '1/2', '--budget-per-shard', '--list'], { PARLEY_BUDGET_USD: '2' });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
  });

  it('runs with --shard and a budget, each shard holding the whole budget', async () => {
    const suite = copyExample('booking');
    const run = await parleyIn(suite, ['run', '.', '--shard', '1/2', '--budget-per-shard', '--budget', '0.5', '--format', 'json']);
    expect(run.code, run.stderr).not.toBe(2);
    expect(JSON.parse(run.stdout).budget.limit_usd).toBe(0.5);
  });
});
