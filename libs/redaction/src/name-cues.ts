import { classesFor, perClasses, type Classes } from './plain-text.js';
import type { NameCuesRule } from './redaction-rule.js';

/** Where a name stands in a text: `text.slice(start, end)` is the name, without its cue or prefix. */
export interface NameSpan {
  start: number;
  end: number;
}

/** A rule's cues as regular expressions for one set of character classes. */
interface CuePatterns {
  prefix: RegExp | undefined;
  introduction: RegExp | undefined;
  weakIntroduction: RegExp | undefined;
  title: RegExp | undefined;
  greeting: RegExp | undefined;
  transfer: RegExp | undefined;
  following: RegExp | undefined;
  words: WordPatterns;
}

/** A rule compiled once: its patterns (built per set of classes on first use) and its word lists. */
interface CompiledCues {
  patterns: (classes: Classes) => CuePatterns;
  notNames: Set<string>;
  places: Set<string>;
  notLowercaseNames: Set<string>;
  /** Recent texts' spans (see {@link nameSpans}). */
  spansByText: Map<string, readonly NameSpan[]>;
}

/** The patterns that find a name's words, for one set of classes. */
interface WordPatterns {
  capitalisedAt: RegExp;
  lowercaseAt: RegExp;
  nextWordAt: RegExp;
  /** Particles that begin a surname after a title (`Mnr. van der Merwe`, `Mev. du Plessis`). */
  leadingParticlesAt: RegExp;
  /** Whether a word begins with an upper-case letter. */
  upperFirst: RegExp;
}

/** A capitalised word: `Sipho`, `Ng'ang'a`, `Mary-Jane`, `McDonald`, `Thandiwe`. */
function capitalisedWord(c: Classes): string {
  return `${c.upper}${c.lowerOrMark}${c.letter}*(?:['’\\-]${c.letter}+)*`;
}

function wordPatterns(c: Classes): WordPatterns {
  /** A word typed in lower case after an introduction (`my name is amina`). */
  const lowercase = `${c.lower}${c.lowerOrMark}+(?:['’\\-]${c.lower}+)*`;
  /** What may not follow a name word: more of a word, a digit, or an e-mail's `@`. */
  const wordEnd = `(?![${c.word}@])`;
  return {
    capitalisedAt: new RegExp(`${capitalisedWord(c)}${wordEnd}`, 'uy'),
    lowercaseAt: new RegExp(`${lowercase}${wordEnd}`, 'uy'),
    /** Between the words of one name: spaces (never a line break), particles allowed. */
    nextWordAt: new RegExp(`[ \\t]+((?:(?:${PARTICLES.join('|')})[ \\t]+){0,2})(?=${c.upper})`, 'uy'),
    leadingParticlesAt: new RegExp(`(?:(?:${PARTICLES.join('|')})[ \\t]+){1,2}(?=${c.upper})`, 'uy'),
    upperFirst: new RegExp(`^${c.upper}`, 'u'),
  };
}

/** Particles inside a name (`Pieter van der Merwe`, `Wanjiku wa Kamau`, `Ahmed bin Salim`). */
const PARTICLES = ['van', 'der', 'den', 'de', 'du', 'le', 'la', 'von', 'wa', 'bin', 'binti', 'ka'];

const wordPatternsFor = perClasses(wordPatterns);

/** What ends a greeting's name: punctuation, a line break, or the end of the text. */
const GREETING_NAME_END = /^[ \t]*(?:[,.!?;:)\n\r]|$)/u;
/** After an introduction: spaces, optionally a colon, a comma or a dash. */
const AFTER_CUE_AT = /[ \t]*(?:[:,\-–][ \t]*)?/uy;
/** The possessive `'s` after a name is grammar, not the name. */
const POSSESSIVE = /['’]s$/u;
/** A name has at most this many words (`Pieter van der Merwe` counts two). */
const MAX_WORDS = 4;

/**
 * How many texts' spans a rule remembers: a replay finds the names in the same text several times
 * (the names a transcript introduces, then each message's masking, for the event, the result and
 * the report), and the cue expressions were a quarter of a replay's CPU. Cleared when full.
 */
const SPANS_MEMO_SIZE = 16_384;

const compiledByRule = new WeakMap<NameCuesRule, CompiledCues>();

function compile(rule: NameCuesRule): CompiledCues {
  const known = compiledByRule.get(rule);
  if (known) return known;
  const compiled: CompiledCues = {
    patterns: perClasses((classes) => cuePatterns(rule, classes)),
    notNames: new Set(rule.not_names.map(fold)),
    places: new Set(rule.places.map(fold)),
    notLowercaseNames: new Set(rule.not_lowercase_names.map(fold)),
    spansByText: new Map(),
  };
  compiledByRule.set(rule, compiled);
  return compiled;
}

function cuePatterns(rule: NameCuesRule, c: Classes): CuePatterns {
  const words = (phrases: readonly string[]): string | undefined =>
    phrases.length === 0
      ? undefined
      : [...phrases]
          .sort((left, right) => right.length - left.length)
          .map((phrase) => phrase.split(/\s+/).map(escape).join('[ \\t]+'))
          .join('|');
  const prefixes = words(rule.prefixes);
  const introductions = words(rule.introductions);
  const weak = words(rule.weak_introductions);
  const titles = words(rule.titles);
  const greetings = words(rule.greetings);
  const transfers = words(rule.transfer_introductions);
  const following = words(rule.following);
  const before = `(?<![${c.word}])`;
  const after = `(?![${c.word}])`;
  const capitalised = capitalisedWord(c);
  const shouted = `${c.upper}{2,}(?:['’\\-]${c.upper}+)*`;
  return {
    // A prefix is written in lower case, or capitalised at the start of a sentence (`USipho`);
    // `kwa`/`ka` capitalised begin place names (`KwaMashu`, `KaNyamazane`), so those stay lower case only.
    prefix: prefixes ? new RegExp(`${before}(?:${prefixes}|${capitalisedPrefixes(rule.prefixes)})-?(?=${c.upper}${c.lower})`, 'gu') : undefined,
    // An introduction that ends in a copula or `ngo` (`igama lami ngu`, `ngibizwa ngo`) is also
    // written glued to a name typed in lower case: `igama lami ngubongani`.
    introduction: introductions ? new RegExp(`${before}(?:(?:${introductions})${after}|(?:${gluedIntroductions(rule.introductions)}))`, 'giu') : undefined,
    weakIntroduction: weak ? new RegExp(`${before}(?:${weak})${after}`, 'giu') : undefined,
    // A title may carry a prefix itself: `uMnu. Khumalo`, `kuDr Pillay`.
    title: titles ? new RegExp(`${before}(?:(?:${prefixes ?? '(?!)'})-?)?(?:${titles})(?:\\.|${after})`, 'giu') : undefined,
    greeting: greetings ? new RegExp(`${before}(?:${greetings})${after}`, 'giu') : undefined,
    transfer: transfers ? new RegExp(`${before}(?:${transfers})[ \\t]+(${shouted}(?:[ \\t]+${shouted}){1,3})(?=[ \\t]+\\+?\\d)`, 'gu') : undefined,
    following: following ? new RegExp(`${before}(${capitalised}(?:[ \\t]+${capitalised}){0,2})[ \\t]+(?:${following})${after}`, 'gu') : undefined,
    words: wordPatternsFor(c),
  };
}

/** The introductions written glued to the name: those ending in the copula `ngu` or in `ngo`. */
function gluedIntroductions(introductions: readonly string[]): string {
  const glued = introductions
    .filter((phrase) => /\s(?:ngu|ngo)$/.test(phrase))
    .sort((left, right) => right.length - left.length)
    .map((phrase) => phrase.split(/\s+/).map(escape).join('[ \\t]+'));
  return glued.length > 0 ? glued.join('|') : '(?!)';
}

/** The prefixes that are also written capitalised at the start of a sentence. */
function capitalisedPrefixes(prefixes: readonly string[]): string {
  const capitalised = prefixes
    .filter((prefix) => !/^k[wa]/.test(prefix) && prefix !== 'ka')
    .map((prefix) => escape(prefix.charAt(0).toLocaleUpperCase('und') + prefix.slice(1)));
  return capitalised.length > 0 ? capitalised.join('|') : '(?!)';
}

/**
 * The names the rule's cues point at in `text`, leftmost first, never overlapping.
 *
 * @example
 * nameSpans('Sawubona, nginguThandiwe. uSipho Nkosi uzofika', floorNameCues)
 *   → the spans of 'Thandiwe' and 'Sipho Nkosi'
 */
export function nameSpans(text: string, rule: NameCuesRule): NameSpan[] {
  // Fresh objects, so a caller may change them.
  return rememberedNameSpans(text, rule).map((span) => ({ start: span.start, end: span.end }));
}

/**
 * {@link nameSpans} as the rule remembers them, for callers that only read them (the masking of a
 * text, the names it introduces): no copy per call. A pure function of the text and the rule (a
 * rule is compiled once and never changes), so a text seen recently gets its spans again.
 */
export function rememberedNameSpans(text: string, rule: NameCuesRule): readonly Readonly<NameSpan>[] {
  const cues = compile(rule);
  let spans = cues.spansByText.get(text);
  if (spans === undefined) {
    spans = findNameSpans(text, cues);
    if (cues.spansByText.size >= SPANS_MEMO_SIZE) cues.spansByText.clear();
    cues.spansByText.set(text, spans);
  }
  return spans;
}

function findNameSpans(text: string, cues: CompiledCues): NameSpan[] {
  const patterns = cues.patterns(classesFor(text));
  const spans: NameSpan[] = [];
  const add = (span: NameSpan | undefined): void => {
    if (span) spans.push(span);
  };
  const nameAfter = (at: number, lowercase: boolean): NameSpan | undefined => nameAt(text, at, cues, patterns.words, { lowercase });
  /** After a title a surname may begin with its particles (`Mnr. van der Merwe`): they are part of the name. */
  const surnameAfterTitle = (at: number): NameSpan | undefined => {
    const particlesEnd = wordAt(text, at, patterns.words.leadingParticlesAt);
    const span = nameAfter(particlesEnd ?? at, false);
    return span && particlesEnd !== undefined ? { start: at, end: span.end } : span;
  };
  for (const at of cueEnds(text, patterns.prefix)) add(nameAfter(at, false));
  for (const at of cueEnds(text, patterns.introduction)) add(nameAfter(skipAfterCue(text, at), true));
  for (const at of cueEnds(text, patterns.weakIntroduction)) add(nameAfter(skipAfterCue(text, at), false));
  for (const at of cueEnds(text, patterns.title)) add(surnameAfterTitle(skipAfterCue(text, at)));
  for (const at of cueEnds(text, patterns.greeting)) {
    const span = nameAfter(skipAfterCue(text, at), false);
    // A greeting is followed by so many ordinary capitalised words ("Hi, How can I help") that
    // only a name that closes the greeting counts: "Hi Grace," "Sawubona Sipho!" "Dumela Palesa".
    if (span && GREETING_NAME_END.test(text.slice(span.end))) add(span);
  }
  const { transfer, following } = patterns;
  if (transfer) {
    transfer.lastIndex = 0;
    for (let match = transfer.exec(text); match !== null; match = transfer.exec(text)) {
      const name = match[1]!;
      const end = match.index + match[0].length;
      add({ start: end - name.length, end });
    }
  }
  if (following) {
    following.lastIndex = 0;
    for (let match = following.exec(text); match !== null; match = following.exec(text)) {
      // The name is the words after the last ordinary word, place or pronoun before the verb:
      // "Yesterday Kevin said" → Kevin; "He said", "waseNelson Mandela Bay uthi" → no name.
      const words = [...match[1]!.matchAll(/\S+/gu)];
      const notName = (word: string): boolean => isNotName(word, cues.notNames) || isNotName(word, cues.places);
      let first = words.length;
      while (first > 0 && !notName(words[first - 1]![0])) first -= 1;
      if (first === words.length) continue;
      add({ start: match.index + words[first]!.index, end: match.index + match[1]!.length });
      following.lastIndex = match.index + match[1]!.length;
    }
  }
  return mergeSpans(spans);
}

/** The distinct names the cues point at in `text` (for masking them wherever else they appear). */
export function namesByCues(text: string, rule: NameCuesRule): string[] {
  const spans = rememberedNameSpans(text, rule);
  if (spans.length === 0) return [];
  if (spans.length === 1) return [text.slice(spans[0]!.start, spans[0]!.end)];
  return [...new Set(spans.map((span) => text.slice(span.start, span.end)))];
}

/** Where each match of a cue ends, leftmost first (a list, not a generator: most texts have none). */
function cueEnds(text: string, pattern: RegExp | undefined): readonly number[] {
  if (!pattern) return NO_ENDS;
  let ends: number[] | undefined;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0] === '') {
      pattern.lastIndex += 1;
      continue;
    }
    (ends ??= []).push(match.index + match[0].length);
  }
  return ends ?? NO_ENDS;
}

const NO_ENDS: readonly number[] = [];

function skipAfterCue(text: string, at: number): number {
  AFTER_CUE_AT.lastIndex = at;
  const match = AFTER_CUE_AT.exec(text);
  return match ? at + match[0].length : at;
}

/**
 * The name starting at `at`: a capitalised word that is not in `not_names` (or, after an
 * introduction, a lower-case word that is not in `not_lowercase_names`), then further capitalised
 * words of the same name.
 */
function nameAt(text: string, at: number, cues: CompiledCues, patterns: WordPatterns, options: { lowercase: boolean }): NameSpan | undefined {
  const first = wordAt(text, at, patterns.capitalisedAt) ?? (options.lowercase ? wordAt(text, at, patterns.lowercaseAt) : undefined);
  if (first === undefined) return undefined;
  const firstWord = text.slice(at, first);
  const lowercase = !patterns.upperFirst.test(firstWord);
  if (lowercase ? cues.notLowercaseNames.has(fold(firstWord)) : isNotName(firstWord, cues.notNames) || isNotName(firstWord, cues.places)) {
    return undefined;
  }
  let end = first;
  // A name typed in lower case is taken as one word: the next lower-case word is usually not a name.
  for (let words = 1; words < MAX_WORDS && !lowercase; words += 1) {
    patterns.nextWordAt.lastIndex = end;
    const gap = patterns.nextWordAt.exec(text);
    if (!gap) break;
    const wordStart = end + gap[0].length;
    const wordEnd = wordAt(text, wordStart, patterns.capitalisedAt);
    if (wordEnd === undefined || isNotName(text.slice(wordStart, wordEnd), cues.notNames)) break;
    end = wordEnd;
  }
  const possessive = POSSESSIVE.exec(text.slice(at, end));
  if (possessive) end -= possessive[0].length;
  return end > at ? { start: at, end } : undefined;
}

function wordAt(text: string, at: number, pattern: RegExp): number | undefined {
  pattern.lastIndex = at;
  const match = pattern.exec(text);
  return match ? at + match[0].length : undefined;
}

/** Whether a capitalised word (or a part of it between hyphens: `Zulu-Natal`) is in `words`. */
function isNotName(word: string, words: ReadonlySet<string>): boolean {
  const bare = word.replace(POSSESSIVE, '');
  if (words.has(fold(bare))) return true;
  return bare.split('-').some((part) => words.has(fold(part)));
}

function mergeSpans(spans: NameSpan[]): NameSpan[] {
  spans.sort((left, right) => left.start - right.start || right.end - left.end);
  const merged: NameSpan[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** Plain ASCII: already NFC, and lower-cased alike by every locale. */
const ASCII = /^[\x00-\x7f]*$/;

function fold(word: string): string {
  // The fast path gives exactly what the general one does for ASCII words (most words here), at a
  // fraction of the cost of normalize and a locale's lower-casing (7 % of a replay's CPU).
  if (ASCII.test(word)) return word.toLowerCase();
  return word.normalize('NFC').toLocaleLowerCase('und');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
