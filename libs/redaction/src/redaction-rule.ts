/**
 * Redaction rules are data: a list of these records, applied in order to every piece of text that
 * leaves a run. The floor (see floor-rules.ts) is one such list; a suite's `redaction:` settings
 * add records to it. Each rule sees only the text earlier rules left untouched, so a `keep` rule
 * protects what it matches from every later rule, and nothing a rule wrote is matched again.
 */
export type RedactionRule = PatternRule | KeepRule | PhoneRule | NamesRule | NameCuesRule | DigitRunRule;

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
  /**
   * Also a North American number written locally: three groups of 3, 3 and 4 digits (`925-446-4144`,
   * `(650) 330-1782`, `415.555.0132`) whose area code and exchange begin with 2–9, as the plan's
   * numbers do.
   */
  north_american_local: boolean;
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

/**
 * Names nobody listed, found by the words around them, in the languages our users' assistants
 * speak (English, Swahili, isiZulu, isiXhosa, Afrikaans, Sesotho). A name is one to four
 * capitalised words (particles such as `van der` allowed inside) after one of these cues; only the
 * name becomes `<name>`, the cue stays, so the sentence still reads: `nginguThandiwe` →
 * `ngingu<name>`, `uSipho Nkosi` → `u<name>`, `jina langu ni Amina` → `jina langu ni <name>`.
 * A name found this way is also masked wherever else it appears in the same text (and, through
 * Redactor.transcript, the same conversation).
 */
export interface NameCuesRule {
  kind: 'name_cues';
  name: string;
  /**
   * Lower-case prefixes glued to a capitalised name (isiZulu and isiXhosa write `uSipho`,
   * `nguThandiwe`, `kaNomsa`, also with a hyphen before a vowel: `ngu-Ayanda`).
   */
  prefixes: string[];
  /** Phrases a name follows (`my name is`, `jina langu ni`, `ke nna`); the name may be typed in lower case. */
  introductions: string[];
  /** Phrases a name follows only when it is capitalised (`I'm`, `ek is`, `mimi ni`). */
  weak_introductions: string[];
  /** Words that follow a name (`… said`, `… uthe`, `… alisema`): the capitalised words before them are the name. */
  following: string[];
  /** Titles and kinship terms before a name (`Mr`, `Bi.`, `Ntate`, `Mnu.`); the title stays. */
  titles: string[];
  /**
   * Words before a name in capitals followed by a phone number, as money-transfer messages write
   * them: `sent to GRACE ACHIENG 0722118904`, `kutoka kwa JOHN OTIENO 254712345678`.
   */
  transfer_introductions: string[];
  /** Greetings and thanks a name may follow (`Sawubona`, `Habari`, `Dumela`, `Thank you`). */
  greetings: string[];
  /** Places, which take the same prefixes (`kwaMashu`, `uMgungundlovu`): never the first word of a name. */
  places: string[];
  /**
   * Other capitalised words these cues also precede that are not people: days and months
   * (`ngoMsombuluko`), languages, institutions, brands, titles, ordinary words at a sentence's
   * start. None of them is a word of a name.
   */
  not_names: string[];
  /** Lower-case words that follow an introduction without being a name (`my name is not …`). */
  not_lowercase_names: string[];
}

/** Runs of at least `min_length` ASCII digits: each digit becomes `mask` (what a `keep` rule protected stays). */
export interface DigitRunRule {
  kind: 'digit_run';
  name: string;
  min_length: number;
  mask: string;
}
