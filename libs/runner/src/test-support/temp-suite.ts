import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Writes a suite (files given by relative path) into a fresh temp folder and returns its path. */
export function writeTempSuite(files: Record<string, string>): string {
  const directory = mkdtempSync(join(tmpdir(), 'parley-suite-'));
  for (const [path, content] of Object.entries(files)) {
    const target = join(directory, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return directory;
}

/**
 * A small spa suite: one happy scenario with a tool call, one whose agent says a forbidden word,
 * one advisory scenario that fails, one metadata_only scenario. Its fake-LLM script answers all of them.
 */
export const SPA_SUITE: Record<string, string> = {
  'parley.yaml': `suite: spa_test
agents:
  booking:
    kind: openai
    model: gpt-4.1-mini
    system_prompt: prompts/booking.md
    tools: tools/booking.json
    temperature: 0
defaults:
  expect:
    - { metric: content_signals, forbidden: ["as an AI language model"] }
settings:
  concurrency: 2
`,
  'prompts/booking.md': 'You are Ratiba, a spa booking assistant. Answer in the customer\'s language.\n',
  'tools/booking.json': JSON.stringify([
    {
      name: 'check_availability',
      description: 'Free slots for a day',
      parameters: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] },
    },
  ]),
  'scenarios/happy.yaml': `id: happy
title: Books a massage
agent: booking
language: sw
tags: [booking, happy-path]
user:
  opening: "Habari! Nataka massage Jumamosi."
  script: ["Saa nne tafadhali."]
tools:
  check_availability: { returns: { slots: ["10:00", "14:00"] } }
expect:
  - { metric: content_signals, required: ["10:00"] }
  - { metric: tool_correctness, expected: [{ name: check_availability, args: { day: saturday } }] }
`,
  'scenarios/leaky.yaml': `id: leaky
agent: booking
tags: [booking]
user:
  opening: "Do you have a reservation system?"
expect:
  - { metric: content_signals, forbidden: ["reservation"] }
`,
  'scenarios/advisory_fail.yaml': `id: advisory_fail
agent: booking
gate: advisory
tags: [style]
user:
  opening: "Just say hello"
expect:
  - { metric: content_signals, required: ["Karibu"] }
`,
  'scenarios/private.yaml': `id: private
agent: booking
metadata_only: true
user:
  opening: "My neighbour Wanjiku hurts me, I need help"
expect:
  - { metric: content_signals, required: ["0800 150 150"] }
`,
  'fake-llm.yaml': `rules:
  - when: { last_user: "Nataka massage", last_message_role: user }
    reply: { tool_calls: [{ name: check_availability, args: { day: saturday } }], usage: { input_tokens: 100, output_tokens: 20 } }
  - when: { last_tool: check_availability }
    reply: { content: "Tuna nafasi saa 10:00 na 14:00. Ungependa ipi?", usage: { input_tokens: 140, output_tokens: 25 } }
  - when: { last_user: "Saa nne" }
    reply: { content: "Sawa, nimeweka saa 10:00 Jumamosi.", usage: { input_tokens: 160, output_tokens: 15 } }
  - when: { last_user: "reservation system" }
    reply: { content: "Yes, our reservation system is online.", usage: { input_tokens: 50, output_tokens: 10 } }
  - when: { last_user: "Just say hello" }
    reply: { content: "Hello!", usage: { input_tokens: 40, output_tokens: 3 } }
  - when: { last_user: "Wanjiku" }
    reply: { content: "You are not alone. Call the GBV helpline on 0800 150 150 or the police on 10111.", usage: { input_tokens: 60, output_tokens: 20 } }
`,
};
