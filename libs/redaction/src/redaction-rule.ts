/**
 * Redaction rules are data: a list of these records, applied in order to every piece of text that
 * leaves a run. The floor (see floor-rules.ts) is one such list; a suite's `redaction:` settings
 * add records to it. Each rule sees only the text earlier rules left untouched, so a `keep` rule
 * protects what it matches from every later rule, and nothing a rule wrote is matched again.
 */
export type RedactionRule = PatternRule | KeepRule | PhoneRule | NamesRule | DigitRunRule;

/** Every match of `pattern` becomes `replacement`, a placeholder such as `<email>`. */
export interface PatternRule {
  kind: 'pattern';
  name: string;
  /** A JavaScript regular expression; `g` is added to `flags`. */
  pattern: string;
  flags?: string;
  /** A placeholder (`<[a-z][a-z0-9_]*>`); placeholders are never matched again, which keeps redaction idempotent. */
  replacement: string;
  /**
   * A cheap pattern (case-insensitive) that every match contains; text without it skips the rule.
   * Patterns that start with a lookbehind are tried at every position, so this saves most of their cost.
   */
  trigger?: string;
}

/** What `pattern` matches is kept verbatim and hidden from later rules (money amounts, receipts, helplines). */
export interface KeepRule {
  kind: 'keep';
  name: string;
  pattern: string;
  flags?: string;
  /** As for {@link PatternRule.trigger}. */
  trigger?: string;
}

/**
 * Phone numbers in international (`+254 712 345 432`, `00254…`), bare country-code (`254712345432`)
 * and local (`0712 345 432`) forms. The country code, the trunk `0`, the first national digit and
 * the last three digits stay; every other digit becomes `mask`; separators stay where they were:
 * `+254 712 345 432` → `+254 7** *** 432`.
 */
export interface PhoneRule {
  kind: 'phone';
  name: string;
  /** Country codes recognised without a `+`, with the length of their national numbers. */
  bare_country_codes: Array<{ code: string; national_digits: number }>;
  /** Lengths of national numbers written locally after the trunk prefix `0` (9 in Kenya and South Africa). */
  local_national_digits: number[];
  /** Shortest and longest national number after an explicit `+country` or `00country` prefix. */
  international_national_digits: { min: number; max: number };
  mask: string;
}

/**
 * People's names (from the suite's identities file and from structured name fields) become
 * `<name>`: the whole name and each of its parts of at least `min_part_length` letters, as whole
 * words in any letter case.
 */
export interface NamesRule {
  kind: 'names';
  name: string;
  min_part_length: number;
}

/** Runs of at least `min_length` ASCII digits: each digit becomes `mask` (what a `keep` rule protected stays). */
export interface DigitRunRule {
  kind: 'digit_run';
  name: string;
  min_length: number;
  mask: string;
}
