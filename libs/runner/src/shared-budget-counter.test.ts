import { describe, expect, it } from 'vitest';
// The store's test drivers are test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { storeDrivers, useStoreDriver } from '../../store/src/test-support/each-driver.js';
import { BudgetTracker } from './budget.js';
import { SharedBudgetCounter, sharedBudgetKey } from './shared-budget-counter.js';

const shard = { index: 2, total: 4 };
const team = { PARLEY_DATABASE_URL: 'postgres://ci@db/parley' };

describe('sharedBudgetKey', () => {
  it('takes --budget-key, else PARLEY_BUDGET_KEY; --budget-per-shard shares nothing', () => {
    expect(sharedBudgetKey({ budgetKey: ' pr-42 ' }, { PARLEY_BUDGET_KEY: 'other' }, 'booking')).toBe('pr-42');
    expect(sharedBudgetKey({}, { PARLEY_BUDGET_KEY: 'pr-7' }, 'booking')).toBe('pr-7');
    expect(sharedBudgetKey({ budgetKey: 'pr-42', budgetPerShard: true, shard }, team, 'booking')).toBeUndefined();
  });

  it('derives one key for the shards of a CI run only when they write to a team store', () => {
    const github = { ...team, GITHUB_REPOSITORY: 'acme/agents', GITHUB_RUN_ID: '991', GITHUB_RUN_ATTEMPT: '2' };
    expect(sharedBudgetKey({ shard }, github, 'booking')).toBe('github:acme/agents:991:2:booking:4');
    expect(sharedBudgetKey({ shard }, { ...team, CI_PROJECT_PATH: 'acme/agents', CI_PIPELINE_ID: '55' }, 'booking')).toBe('gitlab:acme/agents:55:booking:4');
    expect(sharedBudgetKey({ shard }, { ...team, GITHUB_REPOSITORY: 'acme/agents', GITHUB_RUN_ID: '991' }, 'booking')).toBe('github:acme/agents:991:1:booking:4');
    const circle = { CIRCLE_PROJECT_USERNAME: 'acme', CIRCLE_PROJECT_REPONAME: 'agents', CIRCLE_WORKFLOW_ID: 'wf-1' };
    expect(sharedBudgetKey({ shard }, { ...team, ...circle }, 'booking')).toBe('circleci:acme:agents:wf-1:booking:4');
    expect(sharedBudgetKey({ shard }, { ...team, BUILDKITE_PIPELINE_SLUG: 'agents', BUILDKITE_BUILD_ID: 'b-1' }, 'booking')).toBe('buildkite:agents:b-1:booking:4');
    expect(sharedBudgetKey({ shard }, { ...team, SYSTEM_TEAMPROJECT: 'Acme', BUILD_BUILDID: '120' }, 'booking')).toBe('azure:Acme:120:booking:4');
    expect(sharedBudgetKey({ shard }, { ...team, BITBUCKET_REPO_FULL_NAME: 'acme/agents', BITBUCKET_BUILD_NUMBER: '31' }, 'booking')).toBe('bitbucket:acme/agents:31:booking:4');
    expect(sharedBudgetKey({ shard }, { ...team, BUILD_TAG: 'jenkins-agents-17' }, 'booking')).toBe('jenkins:jenkins-agents-17:booking:4');
    // An empty variable names no run.
    expect(sharedBudgetKey({ shard }, { ...team, GITHUB_RUN_ID: '', BUILD_TAG: 'jenkins-agents-17' }, 'booking')).toBe('jenkins:jenkins-agents-17:booking:4');
    // A local SQLite file: shards on other machines would each take the whole budget.
    expect(sharedBudgetKey({ shard }, { GITHUB_RUN_ID: '991' }, 'booking')).toBeUndefined();
    // Not sharded, or not in CI: a budget of its own, as always.
    expect(sharedBudgetKey({}, github, 'booking')).toBeUndefined();
    expect(sharedBudgetKey({ shard: { index: 1, total: 1 } }, github, 'booking')).toBeUndefined();
    expect(sharedBudgetKey({ shard }, team, 'booking')).toBeUndefined();
  });
});

describe.each(storeDrivers)('two runs holding to one shared budget on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('hold from one counter: what one holds the other cannot, and what a run still holds comes back when it ends', () => {
    const first = new BudgetTracker(1, 0, undefined, new SharedBudgetCounter('pr-1', database.path));
    const second = new BudgetTracker(1, 0, undefined, new SharedBudgetCounter('pr-1', database.path));
    try {
      expect(first.hold(0.7)).toBe(true);
      expect(second.hold(0.4)).toBe(false);
      expect(second.heldUsd).toBeCloseTo(0.7, 10);
      first.settle(0.7, 0.5);
      expect(second.spentUsd).toBeCloseTo(0.5, 10);
      expect(second.hold(0.4)).toBe(true);
      expect(first.hold(0.2)).toBe(false);
      // The second run ends holding $0.40 (a call cut short): it goes back.
      second.close();
      expect(first.hold(0.5)).toBe(true);
      expect(first.report()).toMatchObject({ limit_usd: 1, spent_usd: 0.5, shared: { key: 'pr-1', spent_usd: 0.5 } });
      expect(first.exhausted).toBe(false);
      first.settle(0.5, 0.5);
      expect(first.exhausted).toBe(true);
    } finally {
      first.close();
      second.close();
    }
  });
});
