import { describe, expect, it } from 'vitest';
import { describePatternError, isRegexPattern, parseTextPattern, patternMatches } from './text-pattern.js';

describe('parseTextPattern', () => {
  it('reads /body/flags as a regex', () => {
    const pattern = parseTextPattern('/habari/i');
    expect(pattern.kind).toBe('regex');
    expect(patternMatches(pattern, 'HABARI yako', 'exact')).toBe(true);
  });

  it('treats other strings as literals: exact for models, case-sensitive substring for prompts', () => {
    const pattern = parseTextPattern('gpt-4.1');
    expect(patternMatches(pattern, 'gpt-4.1', 'exact')).toBe(true);
    expect(patternMatches(pattern, 'gpt-4.1-mini', 'exact')).toBe(false);
    expect(patternMatches(pattern, 'use gpt-4.1-mini', 'substring')).toBe(true);
    expect(patternMatches(pattern, 'GPT-4.1', 'substring')).toBe(false);
  });

  it('a lone slash or an empty regex body is a literal', () => {
    expect(isRegexPattern('/')).toBe(false);
    expect(isRegexPattern('//')).toBe(false);
    expect(isRegexPattern('/v1/models')).toBe(false);
    expect(isRegexPattern('/a|b/')).toBe(true);
  });

  it('drops the g flag so that the same text matches on every call', () => {
    const pattern = parseTextPattern('/BK-\\d+/g');
    expect([1, 2, 3].map(() => patternMatches(pattern, 'BK-1042', 'substring'))).toEqual([true, true, true]);
  });

  it('names a regex that does not compile', () => {
    expect(describePatternError('/(unclosed/')).toMatch(/invalid regular expression \/\(unclosed\//);
    expect(describePatternError('/fine/i')).toBeUndefined();
    expect(() => parseTextPattern('/[/')).toThrow(SyntaxError);
  });
});
