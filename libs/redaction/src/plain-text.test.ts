import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeRules } from './floor-rules.js';
import { cleanName } from './person-names.js';
import { maskPhoneNumbers } from './phone-numbers.js';
import { PLAIN_TEXT } from './plain-text.js';
import { compileRules, redactText } from './redact-text.js';
import type { PhoneRule } from './redaction-rule.js';
import { joinPieces } from './text-pieces.js';

/**
 * Plain texts are matched with ASCII character classes, other texts with Unicode ones (see
 * plain-text.ts). A line of non-ASCII in front ("é" and a line break, which no pattern here crosses
 * or reads as part of a word) sends the same text down the Unicode path: the result must be the
 * same, with that line in front.
 */
const UNICODE_LINE = 'é\n';

const FRAGMENTS = [
  '+254 712 345 432', '0712 345 432', '+27 82 123 4567', '(011) 345 6789', '254722118904', 'R 25000', 'KES 1,800',
  'Grace Achieng', 'grace', 'ACHIENG', 'Sipho', 'Mary-Jane', "Ng'ang'a", 'Brian', 'brian_2', 'x', 'Q', '7', '0', '_', '+', '*', '@',
  ' ', '  ', '\t', '\n', ', ', '. ', '-', '(', ')', "'", '’', '≤', ' – ', '·', '€', '“', '”',
];
const plainText = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: 'binary-ascii', maxLength: 5 })), { maxLength: 14 })
  .map((parts) => parts.join(''));

describe('plain texts', () => {
  it('allow no letter, mark or digit outside ASCII, with or without case folding', () => {
    let plain = 0;
    for (let code = 0x80; code <= 0xffff; code += 1) {
      const character = String.fromCharCode(code);
      if (!PLAIN_TEXT.test(character)) continue;
      plain += 1;
      // Neither the Unicode classes (with or without case folding, as the patterns use them) nor
      // the ASCII ones (which case folding widens to ſ and K) match it.
      expect(/[\p{L}\p{M}\p{N}_]/iu.test(character) || /[\p{Lu}\p{Ll}]/u.test(character), character).toBe(false);
      expect(/[A-Za-z0-9_]/iu.test(character), character).toBe(false);
    }
    expect(plain).toBeGreaterThan(1000);
    expect(PLAIN_TEXT.test('6 user turns ≤ max 6 · 0.07 s – “ok” €5 →')).toBe(true);
    expect(PLAIN_TEXT.test('Zoë')).toBe(false);
    expect(PLAIN_TEXT.test('½')).toBe(false);
    expect(PLAIN_TEXT.test('😀')).toBe(false);
  });

  it('mask the same phone numbers as the Unicode pattern', () => {
    const rule = composeRules().find((candidate): candidate is PhoneRule => candidate.kind === 'phone')!;
    const masked = (text: string): string => {
      const pieces = maskPhoneNumbers(text, rule);
      return pieces === undefined ? text : joinPieces(pieces);
    };
    fc.assert(
      fc.property(plainText, (text) => {
        expect(`${UNICODE_LINE}${masked(text)}`).toBe(masked(`${UNICODE_LINE}${text}`));
      }),
      { numRuns: 2000 },
    );
  });

  it('mask the same names as the Unicode pattern', () => {
    const rules = compileRules(
      composeRules().filter((rule) => rule.kind === 'names'),
      ['Grace Achieng', 'Sipho', 'Mary-Jane', "Ng'ang'a", 'Brian'],
    );
    fc.assert(
      fc.property(plainText, (text) => {
        expect(`${UNICODE_LINE}${redactText(text, rules)}`).toBe(redactText(`${UNICODE_LINE}${text}`, rules));
      }),
      { numRuns: 2000 },
    );
  });

  it('make the same names clean as the Unicode patterns', () => {
    const unicodeCleanName = (raw: string): string | undefined => {
      const name = raw.normalize('NFC').trim().replace(/\s+/g, ' ');
      if (!/^[\p{L}\p{M}][\p{L}\p{M}'’.\- ]*$/u.test(name)) return undefined;
      return (name.match(/\p{L}/gu)?.length ?? 0) >= 2 ? name : undefined;
    };
    fc.assert(
      fc.property(plainText, (text) => {
        expect(cleanName(text)).toBe(unicodeCleanName(text));
      }),
      { numRuns: 2000 },
    );
    expect(cleanName("  Ng'ang'a  wa Kamau ")).toBe("Ng'ang'a wa Kamau");
    expect(cleanName('zz')).toBe('zz');
    expect(cleanName('z')).toBeUndefined();
  });
});
