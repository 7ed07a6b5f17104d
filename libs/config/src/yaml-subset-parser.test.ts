import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { parseYamlSubset } from './yaml-subset-parser.js';

/** What `yaml` makes of a text, or `'error'` when it refuses it. */
function fullParse(text: string): { value: unknown } | 'error' {
  try {
    return { value: parse(text, { uniqueKeys: true }) };
  } catch {
    return 'error';
  }
}

/**
 * The law: the subset parser either declines or agrees exactly with `yaml`. Answers whether it
 * accepted, so a property can also check that the fast path is really taken.
 */
function expectAgreement(text: string): boolean {
  const fast = parseYamlSubset(text);
  if (fast === undefined) return false;
  const full = fullParse(text);
  expect(full, `yaml refused a text the subset parser accepted:\n${text}`).not.toBe('error');
  if (full !== 'error') expect(fast.value, text).toStrictEqual(full.value);
  return true;
}

const EXAMPLE_SCENARIO = `id: spa_booking_swahili_happy        # [a-z0-9_-]+, unique, equals the file stem
title: Customer books a massage in Swahili and pays by M-Pesa
agent: booking
language: sw                          # attaches the language's fluency metric automatically
tags: [booking, happy-path]
gate: blocking                        # blocking | advisory
vertical: spa
metadata_only: false                  # true: reports and exports keep scores, never conversation content
user:
  opening: "Habari! Nataka massage Jumamosi asubuhi."   # optional fixed first user turn
  script: []                          # fixed user turns, used in order
  simulate:                           # after the script, an LLM plays the user
    persona: Amina, 34, regular customer, prefers Swahili, pays with M-Pesa
    goal: a confirmed 60-minute massage on Saturday morning with price stated
    max_turns: 8
tools:                                # mocked tool results the agent receives
  check_availability: { returns: { slots: ["10:00", "14:00"] } }
  create_booking:     { returns: { booking_id: BK-1042, status: confirmed } }
expect:
  - metric: content_signals
    required: ["BK-1042"]
    forbidden: ["reservation"]
  - metric: tool_correctness
    expected: [check_availability, { name: create_booking, args: { slot: "10:00" } }]
    mode: default                     # default | ordered | exact
    threshold: 0.8
  - metric: conversation_judge
    criteria: Warm, correct, asks one question at a time, confirms price before booking.
    threshold: 0.7
  - metric: booking_slot_consistency  # a custom rubric metric from metrics/
    threshold: 1.0
    thresholding: { max_drop: 0.0 }   # per-test override of the suite default
`;

describe('parseYamlSubset', () => {
  it('parses the documented scenario example exactly as yaml does', () => {
    const fast = parseYamlSubset(EXAMPLE_SCENARIO);
    expect(fast).toBeDefined();
    expect(fast?.value).toStrictEqual(parse(EXAMPLE_SCENARIO));
  });

  it('treats CRLF line ends like LF', () => {
    const crlf = EXAMPLE_SCENARIO.replaceAll('\n', '\r\n');
    expect(parseYamlSubset(crlf)?.value).toStrictEqual(parseYamlSubset(EXAMPLE_SCENARIO)?.value);
  });

  it.each([
    ['literal block, clipped', 'rubric: |\n  Line one\n    indented\n\n  # not a comment\nnext: 1\n'],
    ['literal block, stripped', 'a: |-\n  x\n\n  y\n\n\nb: 2\n'],
    ['literal block at end of file without newline', 'a: |\n  x'],
    ['list at the key indentation', 'a:\n- 1\n- b: 2\n  c:\n  - 3\nd: ~\n'],
    ['scalars of the core schema', 'a: [null, Null, ~, true, False, 12, -0, +7, 1.5, .5, 1e3, 2., "1", \'x\'\'y\']\n'],
    ['quoted keys and escapes', '"a b": "tab\\t \\u00e9 \\"q\\" \\\\"\n\'c\': d\n'],
    ['comments everywhere', '# head\na: 1 # one\n\n  # indented comment\nb:   # empty\n  - x # item\n'],
    ['empty values', 'a:\nb: []\nc: {}\nd:\n  -\n'],
    ['plain scalars with colons and hashes', 'time: 10:00\nurl: http://x.test/a#b\nsharp: C#\n'],
  ])('agrees with yaml on %s', (_name, text) => {
    expect(parseYamlSubset(text), text).toBeDefined();
    expectAgreement(text);
  });

  it.each([
    ['anchors and aliases', 'a: &x 1\nb: *x\n'],
    ['tags', 'a: !!str 1\n'],
    ['multi-line plain scalars', 'a: one\n  two\n'],
    ['folded blocks', 'a: >\n  x\n'],
    ['multi-line flow collections', 'a: [1,\n  2]\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['nested mappings on one line', 'a: b: c\n'],
    ['tabs', 'a:\t1\n'],
    ['hexadecimal numbers', 'a: 0x1F\n'],
    ['document markers', '---\na: 1\n'],
    ['a bare scalar document', 'hello\n'],
    ['an empty document', '# nothing\n'],
    ['trailing commas', 'a: [1, 2,]\n'],
    ['bad indentation', 'a:\n    b: 1\n  c: 2\n'],
  ])('declines %s', (_name, text) => {
    expect(parseYamlSubset(text)).toBeUndefined();
  });

  const keyArbitrary = fc.oneof(
    fc.constantFrom('id', 'agent', 'a', 'b_c', 'x-y', 'gpt-4.1-mini', 'path/to', '10:00', 'true', '1', 'a b', '#k', ''),
    fc.string({ maxLength: 6 }),
  );
  const scalarArbitrary = fc.oneof(
    fc.constantFrom('', ' ', 'null', '~', 'True', 'no', '1', '-1', '1.50', '1e3', '.inf', '0x1F', '10:00', 'a: b', 'a #b'),
    fc.constantFrom('- x', '[x]', '{x}', "it's", '"q"', 'C#', '#', '@at', '&a', '*b', '!t', '|', '>', 'a\nb', 'é ü'),
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );
  const valueArbitrary = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      scalarArbitrary,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(keyArbitrary, tie('value'), { maxKeys: 4 }),
    ),
  })).value;
  const optionsArbitrary = fc.record({
    indent: fc.constantFrom(2, 4),
    indentSeq: fc.boolean(),
    flowCollectionPadding: fc.boolean(),
    defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL') as fc.Arbitrary<
      'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' | 'BLOCK_LITERAL'
    >,
    collectionStyle: fc.constantFrom('any', 'block', 'flow') as fc.Arbitrary<'any' | 'block' | 'flow'>,
    lineWidth: fc.constantFrom(0, 20, 80),
  });

  it('agrees with yaml on whatever yaml itself writes', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.dictionary(keyArbitrary, valueArbitrary, { minKeys: 1, maxKeys: 5 }), optionsArbitrary, (value, options) => {
        if (expectAgreement(stringify(value, options))) accepted++;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(300);
  });

  it('takes the fast path for nearly all files written the way people write scenarios', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
    const text = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.!?'-]{0,30}$/);
    const leaf = fc.oneof(text, word, fc.integer({ min: -1000, max: 1000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean());
    const realistic = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(word, tie('value'), { maxKeys: 4 })),
    })).value;
    let accepted = 0;
    const runs = 1000;
    fc.assert(
      fc.property(fc.dictionary(word, realistic, { minKeys: 1, maxKeys: 6 }), optionsArbitrary, (value, options) => {
        if (expectAgreement(stringify(value, { ...options, lineWidth: 0, defaultStringType: 'PLAIN', collectionStyle: 'any' }))) accepted++;
      }),
      { numRuns: runs },
    );
    expect(accepted).toBeGreaterThan(runs * 0.9);
  });

  it('agrees with yaml on damaged texts (or declines them)', () => {
    const damage = fc.record({
      at: fc.nat(),
      remove: fc.nat({ max: 3 }),
      insert: fc.constantFrom('', ' ', '  ', '\n', '-', ':', ': ', '#', ' #', '"', "'", '[', ']', '{', '}', ',', '|', '|-', '\n  ', 'a', '\\', '\r\n'),
    });
    fc.assert(
      fc.property(fc.constantFrom(EXAMPLE_SCENARIO, 'a:\n  - b: 1\n    c: [x, "y"]\n  - |\n    z\nd: e\n'), fc.array(damage, { minLength: 1, maxLength: 3 }), (text, damages) => {
        let damaged = text;
        for (const { at, remove, insert } of damages) {
          const position = at % (damaged.length + 1);
          damaged = damaged.slice(0, position) + insert + damaged.slice(position + remove);
        }
        expectAgreement(damaged);
      }),
      { numRuns: 5000 },
    );
  });
});
