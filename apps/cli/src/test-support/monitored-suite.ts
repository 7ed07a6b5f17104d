import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashBucket } from '@parley/canary';
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

/**
 * `conversations.jsonl` in `dir`: `count` conversations (`<prefix>-<index>`) that ended an hour
 * ago, each different (the slot), so each judge request is one of its own. Returns the ids the
 * default 5 % monitor sample holds.
 */
export function writeMonitorLog(dir: string, prefix: string, count: number): string[] {
  const ended = new Date(Date.now() - 3_600_000).toISOString();
  const ids = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
  const lines = ids.map((id, index) =>
    JSON.stringify({
      conversation_id: id,
      tenant: 'zuri_spa',
      customer: { name: 'Grace Achieng' },
      turns: [
        { role: 'user', content: "Hi, it's Grace Achieng, a blow-dry on Thursday please.", timestamp: ended },
        { role: 'assistant', content: `Thursday slot ${index} is free: shall I book it?`, timestamp: ended },
      ],
    }),
  );
  writeFileSync(join(dir, 'conversations.jsonl'), `${lines.join('\n')}\n`);
  return ids.filter((id) => hashBucket('parley-monitor', id) < 500);
}
