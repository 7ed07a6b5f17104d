import { describe, expect, it } from 'vitest';
import { expectationLocator } from './expectation-location.js';

const FILES: Record<string, string> = {
  '/s/parley.yaml': `suite: demo
agents:
  bot:
    kind: openai
    model: m
    expect:
      - metric: regex
        pattern: "x"
defaults:
  expect:
    - metric: content_signals
      forbidden: ["OpenAI"]
`,
  '/s/scenarios/one.yaml': `id: one
agent: bot
language: sw
expect:
  - metric: content_signals
    required: ["a"]
  - { metric: content_signals, required: ["b"] }
  - metric: regex
    threshold: 1
`,
};

const locate = expectationLocator((file) => {
  const text = FILES[file];
  if (text === undefined) throw new Error(`no ${file}`);
  return text;
});
const query = { scenarioFile: '/s/scenarios/one.yaml', suiteFile: '/s/parley.yaml', agent: 'bot' };
// The run reports metrics in the order of the merged expectations: defaults, agent, scenario; then fluency_sw.
const metrics = ['content_signals', 'regex', 'content_signals', 'content_signals', 'fluency_sw'];

describe('expectationLocator', () => {
  it('finds the k-th result of a metric across the suite defaults, the agent and the scenario', () => {
    expect(locate({ ...query, metrics, index: 0 })).toEqual({ file: '/s/parley.yaml', line: 11, column: 7 });
    expect(locate({ ...query, metrics, index: 1 })).toEqual({ file: '/s/parley.yaml', line: 7, column: 9 });
    expect(locate({ ...query, metrics, index: 2 })).toEqual({ file: '/s/scenarios/one.yaml', line: 5, column: 5 });
    expect(locate({ ...query, metrics, index: 3 })).toEqual({ file: '/s/scenarios/one.yaml', line: 7, column: 5 });
  });

  it('points fluency_<lang> at `language`, and a result without a metric at the scenario id', () => {
    expect(locate({ ...query, metrics, index: 4 })).toEqual({ file: '/s/scenarios/one.yaml', line: 3, column: 11 });
    expect(locate({ ...query, metrics, index: -1 })).toEqual({ file: '/s/scenarios/one.yaml', line: 1, column: 5 });
  });
});
