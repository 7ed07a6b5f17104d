import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SuiteFile } from '@parley/config';
import { affectedScenarios, suiteConfigChange } from './affected-scenarios.js';
import { loadSuiteForRun } from './load-suite-for-run.js';
import { SPA_SUITE, writeTempSuite } from './test-support/temp-suite.js';

const TWO_AGENTS: Record<string, string> = {
  ...SPA_SUITE,
  'parley.yaml': SPA_SUITE['parley.yaml']!.replace('defaults:', '  support:\n    kind: openai\n    model: gpt-4.1-mini\n    system_prompt: prompts/support.md\ndefaults:'),
  'prompts/support.md': 'You answer support questions.\n',
  'scenarios/refund.yaml': 'id: refund\nagent: support\nuser:\n  opening: "I want a refund"\nexpect:\n  - { metric: content_signals, required: ["refund"] }\n',
};

function suite() {
  const directory = realpathSync(writeTempSuite(TWO_AGENTS));
  return { directory, loaded: loadSuiteForRun(directory) };
}

describe('affectedScenarios', () => {
  it('an agent prompt change affects that agent scenarios only', () => {
    const { directory, loaded } = suite();
    const affected = affectedScenarios(loaded, new Set([join(directory, 'prompts/support.md')]), { kind: 'none' });
    expect([...affected.byScenario.keys()]).toEqual(['refund']);
    expect(affected.affecting).toEqual(['prompts/support.md']);
  });

  it('a tools file change affects the agent that uses it', () => {
    const { directory, loaded } = suite();
    const affected = affectedScenarios(loaded, new Set([join(directory, 'tools/booking.json')]), { kind: 'none' });
    expect([...affected.byScenario.keys()].sort()).toEqual(['advisory_fail', 'happy', 'leaky', 'private']);
  });

  it('a scenario file or its recording affects that scenario', () => {
    const { directory, loaded } = suite();
    expect([...affectedScenarios(loaded, new Set([join(directory, 'scenarios/leaky.yaml')]), { kind: 'none' }).byScenario.keys()]).toEqual(['leaky']);
    expect([...affectedScenarios(loaded, new Set([join(directory, 'recordings/happy.jsonl')]), { kind: 'none' }).byScenario.keys()]).toEqual(['happy']);
  });

  it('a scenario file with variants affects every variant; a variant’s recording, that variant only', () => {
    const directory = realpathSync(
      writeTempSuite({ ...TWO_AGENTS, 'scenarios/refund.yaml': `${TWO_AGENTS['scenarios/refund.yaml']}vars: { lang: [en, sw] }\n` }),
    );
    const loaded = loadSuiteForRun(directory);
    expect([...affectedScenarios(loaded, new Set([join(directory, 'scenarios/refund.yaml')]), { kind: 'none' }).byScenario.keys()]).toEqual(['refund[lang=en]', 'refund[lang=sw]']);
    expect([...affectedScenarios(loaded, new Set([join(directory, 'recordings/refund[lang=sw].jsonl')]), { kind: 'none' }).byScenario.keys()]).toEqual(['refund[lang=sw]']);
  });

  it('a custom metric definition affects the scenarios that use it', () => {
    const directory = realpathSync(
      writeTempSuite({
        ...TWO_AGENTS,
        // A rubric metric needs a judge to run (loading refuses it otherwise).
        'parley.yaml': `${TWO_AGENTS['parley.yaml']}judge:\n  primary: { provider: anthropic, model: claude-opus-4-7 }\n`,
        'metrics/politeness.yaml': 'name: politeness\nversion: 1.0.0\nscale: { min: 1, max: 5 }\nrubric: Is the agent polite?\napplies_to: conversation\n',
      }),
    );
    writeFileSync(join(directory, 'scenarios/refund.yaml'), `${TWO_AGENTS['scenarios/refund.yaml']}  - { metric: politeness, threshold: 0.6 }\n`);
    const loaded = loadSuiteForRun(directory);
    const affected = affectedScenarios(loaded, new Set([join(directory, 'metrics/politeness.yaml')]), { kind: 'none' });
    expect([...affected.byScenario.keys()]).toEqual(['refund']);
  });

  it('parley.yaml changes affect an agent scenarios or all of them', () => {
    const { loaded } = suite();
    const file = realpathSync(loaded.file);
    expect([...affectedScenarios(loaded, new Set([file]), { kind: 'agents', agents: new Set(['support']) }).byScenario.keys()]).toEqual(['refund']);
    expect(affectedScenarios(loaded, new Set([file]), { kind: 'all' }).byScenario.size).toBe(5);
    expect(affectedScenarios(loaded, new Set([file]), { kind: 'none' }).byScenario.size).toBe(0);
  });

  it('unrelated files affect nothing', () => {
    const { directory, loaded } = suite();
    expect(affectedScenarios(loaded, new Set([join(directory, 'README.md'), '/elsewhere/file.ts']), { kind: 'none' }).byScenario.size).toBe(0);
  });
});

describe('suiteConfigChange', () => {
  const base: SuiteFile = {
    suite: 's',
    scenarios: 'scenarios/**/*.yaml',
    recordings: 'recordings',
    metrics: 'metrics',
    agents: { a: { kind: 'openai', model: 'm' }, b: { kind: 'openai', model: 'm' } },
  };

  it('names the agents whose definition changed', () => {
    expect(suiteConfigChange(base, base)).toEqual({ kind: 'none' });
    expect(suiteConfigChange(base, { ...base, agents: { ...base.agents, b: { kind: 'openai', model: 'n' } } })).toEqual({ kind: 'agents', agents: new Set(['b']) });
    expect(suiteConfigChange(base, { ...base, agents: { ...base.agents, c: { kind: 'openai', model: 'm' } } })).toEqual({ kind: 'agents', agents: new Set(['c']) });
  });

  it('treats any other change, or no old file, as affecting everything', () => {
    expect(suiteConfigChange(base, { ...base, settings: { concurrency: 2 } })).toEqual({ kind: 'all' });
    expect(suiteConfigChange(undefined, base)).toEqual({ kind: 'all' });
  });
});
