import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyCost, type ScenarioResult } from '@parley/core';
import { openStore } from '@parley/store';
import { runBudget } from './run-budget.js';
import { writeTempSuite } from './test-support/temp-suite.js';

const suiteWith = (settings: string) =>
  writeTempSuite({ 'parley.yaml': `suite: budgeted\nagents:\n  a: { kind: openai, model: gpt-4.1-mini }\n${settings}` });

function passed(id: string, usd: number | null): ScenarioResult {
  return { scenario_id: id, agent: 'a', gate: 'blocking', tags: [], metadata_only: false, status: 'pass', reason: 'ok', metrics: [], cost: { ...emptyCost(), usd } };
}

describe('runBudget', () => {
  it('resolves the limit as the run does: --budget, else PARLEY_BUDGET_USD, else settings.budget_usd', () => {
    const dir = suiteWith('settings: { budget_usd: 3 }\n');
    expect(runBudget({ suitePath: dir, budgetUsd: 0.5 }, { cwd: dir, env: { PARLEY_BUDGET_USD: '2' } })).toEqual({ limitUsd: 0.5, spentBeforeUsd: 0 });
    expect(runBudget({ suitePath: dir }, { cwd: dir, env: { PARLEY_BUDGET_USD: '2' } })).toEqual({ limitUsd: 2, spentBeforeUsd: 0 });
    expect(runBudget({ suitePath: join(dir, 'parley.yaml') }, { cwd: '/', env: {} })).toEqual({ limitUsd: 3, spentBeforeUsd: 0 });
    expect(runBudget({ suitePath: '.' }, { cwd: dir, env: {} })).toEqual({ limitUsd: 3, spentBeforeUsd: 0 });
    expect(() => runBudget({ suitePath: dir }, { cwd: dir, env: { PARLEY_BUDGET_USD: 'lots' } })).toThrow('PARLEY_BUDGET_USD must be an amount of US dollars');
  });

  it('under --shard I/N shows the shard its share of the PR budget, unless --budget-per-shard', () => {
    const dir = suiteWith('settings: { budget_usd: 20 }\n');
    expect(runBudget({ suitePath: dir, shard: { index: 2, total: 4 } }, { cwd: dir, env: {} })).toEqual({ limitUsd: 5, spentBeforeUsd: 0 });
    expect(runBudget({ suitePath: dir, shard: { index: 2, total: 4 }, budgetPerShard: true }, { cwd: dir, env: {} })).toEqual({ limitUsd: 20, spentBeforeUsd: 0 });
  });

  it('is undefined without a budget, or when the suite cannot be read (the run reports why)', () => {
    expect(runBudget({ suitePath: '.' }, { cwd: suiteWith(''), env: {} })).toBeUndefined();
    expect(runBudget({ suitePath: 'missing' }, { cwd: suiteWith(''), env: {} })).toBeUndefined();
    expect(runBudget({ suitePath: '.' }, { cwd: writeTempSuite({ 'parley.yaml': 'suite: [' }), env: {} })).toBeUndefined();
  });

  it('a resumed run keeps its own budget and counts what it had spent', () => {
    const dir = suiteWith('settings: { budget_usd: 3 }\n');
    const store = openStore(join(dir, '.parley/parley.db'));
    try {
      store.createRun({ id: '20260101-000000-abcdef', suite: 'budgeted', mode: 'live', started_at: '2026-01-01T00:00:00.000Z', parley_version: '0.1.0', options: { suite_dir: dir, budget_usd: 1.5 }, out_dir: join(dir, 'out') });
      store.saveScenarioResult('20260101-000000-abcdef', passed('s1', 0.25));
      store.saveScenarioResult('20260101-000000-abcdef', passed('s2', null));
    } finally {
      store.close();
    }
    expect(runBudget({ suitePath: 'elsewhere', budgetUsd: 9, resume: '20260101' }, { cwd: dir, env: {} })).toEqual({ limitUsd: 1.5, spentBeforeUsd: 0.25 });
  });
});
