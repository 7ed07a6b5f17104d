import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A small booking suite of its own (one prompt agent with two tools, one scripted scenario, no
 * judge metrics), so the privacy tests do not depend on how the examples evolve.
 */
export const ZURI_SUITE: Record<string, string> = {
  'parley.yaml': `suite: zuri_booking
agents:
  booking:
    kind: openai
    model: gpt-4.1-mini
    system_prompt: prompts/booking.md
    tools: tools/booking.json
    temperature: 0.3
`,
  'prompts/booking.md': 'You are Ratiba, the WhatsApp booking assistant of Zuri Spa & Salon in Kilimani, Nairobi.\n',
  'tools/booking.json': JSON.stringify([
    {
      name: 'check_availability',
      description: 'Free slots of a service on a day',
      parameters: { type: 'object', properties: { service: { type: 'string' }, date: { type: 'string' }, time_preference: { type: 'string' } } },
    },
    {
      name: 'create_booking',
      description: 'Books a slot',
      parameters: { type: 'object', properties: { slot: { type: 'string' }, customer_name: { type: 'string' }, phone: { type: 'string' } } },
    },
  ]),
  'scenarios/blowdry_booking.yaml': `id: blowdry_booking
agent: booking
language: en
user:
  opening: "Hi, I'd like a blow-dry on Thursday. It's Grace Achieng, 0722 118 904."
expect:
  - { metric: content_signals, required: ["BK-1057"] }
`,
};

/** Answers blowdry_booking for a record run against tools/fake-llm. */
export const ZURI_FAKE_LLM = `rules:
  - when: { last_user: "blow-dry" }
    reply: { content: "Asante Grace Achieng! Booked for Thursday 15:00, BK-1057. We will text 0722 118 904." }
`;

/** Writes files (relative path → text) into a new temp folder. */
export function writeSuite(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-zuri-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
