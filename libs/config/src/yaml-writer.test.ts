import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseYamlSubset } from './yaml-subset-parser.js';
import { toYamlText } from './yaml-writer.js';

describe('toYamlText', () => {
  it('writes a header comment and block style without folding long lines', () => {
    const long = 'Habari! '.repeat(20).trim();
    const text = toYamlText({ id: 'prod_1', user: { opening: long, script: ['yes', '0712 345 432'] } }, { headerComment: 'Promoted\n\nReview it' });
    expect(text.split('\n').slice(0, 3)).toEqual(['# Promoted', '', '# Review it']);
    expect(text).toContain(`opening: ${long}\n`);
    expect(text).toContain('- 0712 345 432\n');
  });

  it('reads back as the same value, with yaml and with the fast subset parser (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue({ maxDepth: 3 })), (value) => {
        const normalised = JSON.parse(JSON.stringify(value)) as unknown;
        const text = toYamlText(normalised);
        expect(parse(text)).toEqual(normalised);
        const fast = parseYamlSubset(text);
        if (fast !== undefined) expect(fast.value).toEqual(normalised);
      }),
      { numRuns: 300 },
    );
  });
});
