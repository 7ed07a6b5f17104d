/**
 * How script authors write conditions: a string `/…/flags` is a regular expression, anything else
 * is a literal. Keeping this in one place means the schema (which rejects a broken regex when the
 * script is loaded) and the matcher (which applies it per request) can never disagree.
 */

/** A parsed condition string: either a compiled regex or the literal text. */
export type TextPattern = { kind: 'regex'; regex: RegExp; source: string } | { kind: 'literal'; text: string };

/** How a literal is compared: `model` and headers compare whole values, prompts search inside. */
export type LiteralMode = 'exact' | 'substring';

/** Only real flag letters, so that a path such as `/v1/models` stays a literal. */
const REGEX_LITERAL = /^\/(.+)\/([dgimsuvy]*)$/s;

/**
 * Parses `"/habari/i"` into a regex and `"gpt-4.1-mini"` into a literal.
 *
 * The `g` and `y` flags are dropped: they make `RegExp.test` stateful (it resumes at `lastIndex`),
 * which would make the same rule match on one request and not on an identical next one.
 *
 * @example parseTextPattern('/habari/i') // { kind: 'regex', regex: /habari/i, source: '/habari/i' }
 * @throws SyntaxError when the string looks like a regex but does not compile.
 */
export function parseTextPattern(pattern: string): TextPattern {
  const regexParts = REGEX_LITERAL.exec(pattern);
  if (!regexParts) return { kind: 'literal', text: pattern };
  const [, body = '', flags = ''] = regexParts;
  const statelessFlags = flags.replace(/[gy]/g, '');
  return { kind: 'regex', regex: new RegExp(body, statelessFlags), source: pattern };
}

/** Whether the string is written as a regex (`/…/flags`) rather than a literal. */
export function isRegexPattern(pattern: string): boolean {
  return REGEX_LITERAL.test(pattern);
}

/** The reason a pattern string is unusable, or undefined when it is fine. */
export function describePatternError(pattern: string): string | undefined {
  try {
    parseTextPattern(pattern);
    return undefined;
  } catch (error) {
    return `invalid regular expression ${pattern}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Whether `text` satisfies the pattern; a literal compares per `literalMode` (case-sensitive). */
export function patternMatches(pattern: TextPattern, text: string, literalMode: LiteralMode): boolean {
  if (pattern.kind === 'regex') return pattern.regex.test(text);
  return literalMode === 'exact' ? text === pattern.text : text.includes(pattern.text);
}
