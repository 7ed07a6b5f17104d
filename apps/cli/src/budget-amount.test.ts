import { describe, expect, it } from 'vitest';
import { copyExample } from './test-support/example-copy.js';
import { parleyAsync } from './test-support/parley-process.js';

const AMOUNT_ERROR = 'must be an amount of US dollars ≥ 0 (e.g. 5 or 0.50)';

describe('a budget is read the same way by every command and from every source (real binary)', () => {
  it('refuses what is not a decimal amount of dollars with exit 2, naming where it came from', async () => {
    const suite = copyExample('booking');
    for (const bad of ['-1', 'abc', '5,00', '0x10', '1e3', ' ']) {
      const run = await parleyAsync(['run', '.', '--budget', bad], { cwd: suite });
      expect(run.status, bad).toBe(2);
      expect(run.stderr, bad).toContain(`--budget ${AMOUNT_ERROR}, got "${bad}"`);
    }
    const fromEnv = await parleyAsync(['run', '.'], { cwd: suite, env: { PARLEY_BUDGET_USD: '0x10' } });
    expect(fromEnv.status).toBe(2);
    expect(fromEnv.stderr).toContain(`PARLEY_BUDGET_USD ${AMOUNT_ERROR}, got "0x10"`);
    // parley monitor names the variable too, not a --budget the user never gave.
    const monitor = await parleyAsync(['monitor', '--logs', 'conversations.jsonl'], { cwd: suite, env: { PARLEY_BUDGET_USD: 'abc' } });
    expect(monitor.status).toBe(2);
    expect(monitor.stderr).toContain(`PARLEY_BUDGET_USD ${AMOUNT_ERROR}, got "abc"`);
    const monitorFlag = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--budget', '5,00'], { cwd: suite });
    expect(monitorFlag.status).toBe(2);
    expect(monitorFlag.stderr).toContain(`--budget ${AMOUNT_ERROR}, got "5,00"`);
  }, 120_000);

  it('takes "$5" as five dollars from the flag and from PARLEY_BUDGET_USD alike', async () => {
    const suite = copyExample('booking');
    const flag = await parleyAsync(['run', '.', '--budget', '$0.50', '--format', 'json'], { cwd: suite });
    expect(flag.status, flag.stderr).toBe(0);
    expect(JSON.parse(flag.stdout).budget.limit_usd).toBe(0.5);
    const env = await parleyAsync(['run', '.', '--format', 'json'], { cwd: suite, env: { PARLEY_BUDGET_USD: '$5' } });
    expect(env.status, env.stderr).toBe(0);
    expect(JSON.parse(env.stdout).budget.limit_usd).toBe(5);
  }, 120_000);
});
