/**
 * Texts whose characters are ASCII or symbols, punctuation and spaces (most texts: `≤`, `·`, `–`,
 * `’`, `€` included) are matched with patterns whose character classes are written in ASCII
 * (`A-Za-z0-9_` for `\p{L}\p{M}\p{N}_`): on such a text both match exactly the same characters
 * (\p{L} ∩ ASCII is A-Za-z, \p{N} ∩ ASCII is 0-9, no ASCII character is a mark, and none of the
 * other characters allowed here is a letter, a mark or a digit), and V8 compiles the ASCII ones in
 * a fraction of the time: each Unicode property class costs 1-2 ms of CPU on its first match, which
 * a one-scenario replay paid for every masking pattern. The Unicode patterns are compiled only
 * when a text with other characters comes.
 *
 * Allowed from outside ASCII: the Latin-1 symbols, General Punctuation, currency signs, arrows,
 * mathematical and technical symbols, box drawing and geometric shapes (plain-text.test.ts checks
 * that none of these is a letter, a mark or a digit, with or without case folding). No `u` flag: a
 * character outside the BMP takes the Unicode path.
 */
export const PLAIN_TEXT = /^[\x00-\x7f\xa0-\xa9\xab-\xb1\xb4\xb6-\xb8\xbb\xbf\xd7\xf7\u2000-\u206f\u20a0-\u20cf\u2190-\u23ff\u2500-\u25ff]*$/;

/** A character class's contents, written for plain texts or for any text. */
export interface Classes {
  /** An upper-case letter. */
  upper: string;
  /** A lower-case letter. */
  lower: string;
  /** A lower-case letter or a combining mark (a bracketed class). */
  lowerOrMark: string;
  /** A letter or a combining mark (a bracketed class). */
  letter: string;
  /** Inside brackets: a letter, a mark, a digit or `_` (what may not stand right before or after a word). */
  word: string;
  /** Inside brackets: a letter or a digit. */
  letterOrDigit: string;
  /** Inside brackets: a letter. */
  letterOnly: string;
  /** Inside brackets: a letter or a combining mark. */
  letterOrMark: string;
}

const UNICODE_CLASSES: Classes = {
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  lowerOrMark: '[\\p{Ll}\\p{M}]',
  letter: '[\\p{L}\\p{M}]',
  word: '\\p{L}\\p{M}\\p{N}_',
  letterOrDigit: '\\p{L}\\p{N}',
  letterOnly: '\\p{L}',
  letterOrMark: '\\p{L}\\p{M}',
};

const ASCII_CLASSES: Classes = {
  upper: '[A-Z]',
  lower: '[a-z]',
  lowerOrMark: '[a-z]',
  letter: '[A-Za-z]',
  word: 'A-Za-z0-9_',
  letterOrDigit: 'A-Za-z0-9',
  letterOnly: 'A-Za-z',
  letterOrMark: 'A-Za-z',
};

/** The classes for `text`: ASCII ones for a plain text, Unicode ones otherwise. */
export function classesFor(text: string): Classes {
  return PLAIN_TEXT.test(text) ? ASCII_CLASSES : UNICODE_CLASSES;
}

/** A pattern built for each set of classes on its first use: `patternFor(classes)` gives the one for those classes. */
export function perClasses<Pattern>(build: (classes: Classes) => Pattern): (classes: Classes) => Pattern {
  let plain: Pattern | undefined;
  let unicode: Pattern | undefined;
  return (classes) => (classes === ASCII_CLASSES ? (plain ??= build(ASCII_CLASSES)) : (unicode ??= build(UNICODE_CLASSES)));
}

/** A pattern built for each set of classes on its first use: `patternFor(text)` gives the one for `text`. */
export function byClasses<Pattern>(build: (classes: Classes) => Pattern): (text: string) => Pattern {
  const patternFor = perClasses(build);
  return (text) => patternFor(classesFor(text));
}
