import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Transcript } from '@parley/core';
import { composeRules } from './floor-rules.js';
import { createRedactor } from './redactor.js';
import { FAIL_CLOSED } from './redact-text.js';

/** Fragments real conversations are made of, so generated texts hit every rule and their borders. */
const FRAGMENTS = [
  '+254 712 345 432', '0712 345 432', '+27 82 123 4567', '082 123 4567', '254722118904', '00254712345432', '(011) 345 6789',
  'KES 150000', 'R 25000', 'ZAR1500000', 'QGH7XK2L9M', '9f1c2b3a-1234-4c5d-8e9f-0a1b2c3d4e5f', 'tracking id: 8834021177',
  'grace.achieng@gmail.com', 'Grace Achieng', 'thandiwe', '<name>', '<email>', '***', '12345678', '0800 150 150', '4111 1111 1111 1111',
  'sk-test-ABCDEF123456', 'Bearer abc123def456', 'https://u:p4ssword@x.io', '+', '-', ' ', '.', '(', ')', '0', '7', '@', '<', '>', '*',
  'Habari', 'Sawa', 'Ngiyabonga', 'Dankie', '\n', 'é', '😀',
  'nginguThandiwe', 'uSipho Nkosi', 'jina langu ni ', 'my name is ', 'Sawubona ', 'Bi. ', 'kwaMashu', 'ke nna ', 'Sipho', ' said', ', ', 'sent to GRACE ACHIENG ', 'U', 'ngu-',
];

const conversationText = fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 }), fc.stringMatching(/^[0-9 +\-()]{0,14}$/)), {
  maxLength: 14,
}).map((parts) => parts.join(''));

const anyText = fc.oneof(conversationText, fc.string({ unit: 'grapheme', maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }));

/** A suite's own rules, including ones whose matches overlap the floor's, to test idempotence beyond the floor. */
const SUITE_RULES = composeRules({
  keep: ['0800 150 150'],
  secretValues: ['sk-test-ABCDEF123456'],
  suiteRules: [
    { kind: 'pattern', name: 'ticket', pattern: 'TKT-\\d+', replacement: '<ticket>' },
    { kind: 'pattern', name: 'tooth', pattern: 'tooth \\d+', flags: 'i', replacement: '<clinical>' },
    { kind: 'pattern', name: 'greedy_digits', pattern: '\\d{2,}\\s?\\*', replacement: '<masked>' },
  ],
});

const redactors = [
  createRedactor(),
  createRedactor({ names: ['Grace Achieng', 'Thandiwe Mokoena', 'Sipho'] }),
  createRedactor({ rules: SUITE_RULES, names: ['Wanjiku'], maskedFields: ['diagnosis'] }),
];

describe('the redactor (properties)', () => {
  it('is idempotent on text: redacting twice equals redacting once', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom(...redactors), (text, redactor) => {
        const once = redactor.text(text);
        expect(redactor.text(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('is idempotent with any identities list, never throws, and never returns a non-string', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 5 }), anyText, (names, text) => {
        const redactor = createRedactor({ names });
        const once = redactor.text(text);
        expect(typeof once).toBe('string');
        expect(redactor.text(once)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });

  it('is idempotent on any JSON value and never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(...redactors), (value, redactor) => {
        const once = redactor.value(value);
        expect(redactor.value(once)).toEqual(once);
      }),
      { numRuns: 1000 },
    );
  });

  it('is idempotent on transcripts, whose tool arguments become hashes', () => {
    const turn = fc.record({
      role: fc.constantFrom('user' as const, 'assistant' as const, 'tool' as const),
      content: fc.oneof(anyText, fc.jsonValue().map((value) => JSON.stringify(value))),
      turn: fc.integer({ min: 1, max: 5 }),
      tool_calls: fc.option(
        fc.array(fc.record({ name: fc.constantFrom('create_booking', 'lookup'), args: fc.dictionary(fc.constantFrom('customer_name', 'phone', 'day'), anyText) }), {
          maxLength: 2,
        }),
        { nil: undefined },
      ),
    });
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 6 }), fc.constantFrom(...redactors), (turns, redactor) => {
        const transcript: Transcript = {
          ended_by: 'script',
          turns: turns.map(({ tool_calls, ...rest }) => (tool_calls === undefined ? rest : { ...rest, tool_calls })),
        };
        const once = redactor.transcript(transcript);
        expect(redactor.transcript(once)).toEqual(once);
        for (const message of once.turns) for (const call of message.tool_calls ?? []) expect(Object.keys(call.args)).toEqual(['sha256']);
      }),
      { numRuns: 500 },
    );
  });

  it('never lets the middle digits of a Kenyan or South African mobile number through', () => {
    const kenyan = fc.tuple(fc.constantFrom('7', '1'), fc.stringMatching(/^\d{8}$/)).map(([lead, rest]) => `${lead}${rest}`);
    const southAfrican = fc.tuple(fc.constantFrom('6', '7', '8'), fc.stringMatching(/^\d{8}$/)).map(([lead, rest]) => `${lead}${rest}`);
    const written = fc.oneof(
      kenyan.map((national) => ({ national, text: `+254 ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}` })),
      kenyan.map((national) => ({ national, text: `0${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}` })),
      kenyan.map((national) => ({ national, text: `254${national}` })),
      southAfrican.map((national) => ({ national, text: `+27 ${national.slice(0, 2)} ${national.slice(2, 5)} ${national.slice(5)}` })),
      southAfrican.map((national) => ({ national, text: `0${national.slice(0, 2)} ${national.slice(2, 5)} ${national.slice(5)}` })),
    );
    fc.assert(
      fc.property(written, fc.constantFrom('Nipigie ', 'Bel my op ', ''), fc.constantFrom(' asante', '.', ''), ({ national, text }, before, after) => {
        const redacted = createRedactor().text(`${before}${text}${after}`);
        const digits = redacted.replace(/\D/g, '');
        expect(digits.endsWith(national.slice(-3))).toBe(true);
        expect(redacted.match(/\*/g)?.length).toBe(national.length - 4);
      }),
      { numRuns: 1000 },
    );
  });

  it('fails closed instead of throwing when suite rules never settle', () => {
    const flipFlop = createRedactor({
      rules: [
        { kind: 'pattern', name: 'a_to_b', pattern: 'a', replacement: '<b>' },
        // A rule whose replacement is not a placeholder (only possible in code, not from parley.yaml) can loop.
        { kind: 'keep', name: 'nothing', pattern: '(?!)' },
      ],
    });
    expect(flipFlop.text('a')).toBe('<b>');
    const looping = createRedactor({ rules: [{ kind: 'pattern', name: 'grow', pattern: 'x', replacement: 'xx' }] });
    expect(looping.text('x')).toBe(FAIL_CLOSED);
    expect(looping.text(looping.text('x'))).toBe(FAIL_CLOSED);
  });
});
