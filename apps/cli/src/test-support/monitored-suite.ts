import { ZURI_SUITE } from './zuri-suite.js';

/** The Zuri suite with a judge (gpt-4.1), one judge metric in its defaults, and a restricted vertical: what `parley monitor` tests judge with. */
export const MONITORED_SUITE: Record<string, string> = {
  ...ZURI_SUITE,
  'parley.yaml': `${ZURI_SUITE['parley.yaml']}judge:
  primary: { provider: openai, model: gpt-4.1, temperature: 0 }
defaults:
  expect:
    - { metric: service_quality, threshold: 0.6 }
redaction:
  restricted_verticals: [dental]
`,
  'metrics/service_quality.yaml': `name: service_quality
version: 1.0.0
scale: { min: 1, max: 5 }
applies_to: conversation
rubric: |
  5: the customer got what they asked for, politely and clearly. 1: they did not.
`,
};
