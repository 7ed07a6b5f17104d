import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as z from 'zod';

/** Write files (path relative to a new temp folder → content) and answer the folder. */
export function writeFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-config-'));
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}

/** Built-in metric parameter schemas as @parley/metrics might declare them. */
export const METRIC_PARAMS: Record<string, z.ZodType> = {
  content_signals: z.object({
    required: z.array(z.string()).optional(),
    forbidden: z.array(z.string()).optional(),
    turn: z.number().int().min(1).optional(),
  }),
  tool_correctness: z.object({
    expected: z.array(z.union([z.string(), z.strictObject({ name: z.string(), args: z.record(z.string(), z.unknown()).optional() })])),
    mode: z.enum(['default', 'ordered', 'exact']).optional(),
  }),
  conversation_judge: z.object({ criteria: z.string().min(1) }),
  fluency_en: z.object({}),
  fluency_sw: z.object({}),
  fluency_zu: z.object({}),
  fluency_af: z.object({}),
  mpesa_payment_safety: z.object({}),
};

export const METRIC_VERSIONS: Record<string, string> = {
  content_signals: '1.0.0',
  tool_correctness: '1.0.0',
  conversation_judge: '1.2.0',
  fluency_en: '1.0.0',
  fluency_sw: '1.0.0',
};

/** A small valid suite: two agents, one with a prompt and tools, defaults, one custom metric. */
export const SUITE_YAML = `suite: ratiba_booking
agents:
  booking:
    kind: openai
    model: gpt-4.1-mini
    system_prompt: prompts/booking.md
    tools: tools/booking.json
    expect:
      - { metric: tool_correctness, expected: [check_availability] }
  booking_service:
    kind: http
    url: http://127.0.0.1:8080/chat
defaults:
  expect:
    - { metric: content_signals, forbidden: ["as an AI language model"] }
settings:
  gate: blocking
`;

export const TOOLS_JSON = `[
  { "name": "check_availability", "description": "Free slots", "parameters": { "type": "object", "properties": { "day": { "type": "string" } } } },
  { "type": "function", "function": { "name": "create_booking", "parameters": { "type": "object", "properties": {} }, "strict": true } }
]
`;

export const RUBRIC_METRIC_YAML = `name: booking_slot_consistency
version: 1.0.0
scale: { min: 1, max: 5 }
rubric: |
  Score 5 when the booked slot is one the availability tool offered.
applies_to: conversation
`;

export function scenarioYaml(id: string, extra = ''): string {
  return `id: ${id}
agent: booking
user:
  opening: Habari
${extra}`;
}

/** Files of a valid suite, to be overridden per test. */
export function validSuiteFiles(): Record<string, string> {
  return {
    'parley.yaml': SUITE_YAML,
    'prompts/booking.md': 'You are the booking assistant.\r\nBe brief.\r\n',
    'tools/booking.json': TOOLS_JSON,
    'metrics/booking_slot_consistency.yaml': RUBRIC_METRIC_YAML,
    'scenarios/spa_happy.yaml': scenarioYaml('spa_happy'),
  };
}

/**
 * `line:column` (1-based) where `snippet` starts in `text` (its `occurrence`-th appearance, from
 * 1), so tests state positions by what is written there instead of by counting characters.
 */
export function whereIs(text: string, snippet: string, occurrence = 1): string {
  let offset = -1;
  for (let found = 0; found < occurrence; found++) {
    offset = text.indexOf(snippet, offset + 1);
    if (offset < 0) throw new Error(`"${snippet}" not found ${occurrence} times`);
  }
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `${line}:${column}`;
}
