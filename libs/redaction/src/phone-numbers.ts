import { countryCodeLength } from './country-codes.js';
import { byClasses } from './plain-text.js';
import type { PhoneRule } from './redaction-rule.js';
import type { Piece } from './text-pieces.js';

/**
 * Digit groups separated by single spaces, dots or hyphens (or parentheses), optionally after `+`
 * or beginning with a country code in parentheses (`(+27) 82 123 4567`): everything that could be
 * a phone number. Which part of it really is one is decided in code, so the pattern stays linear
 * (every separator is required, so groups cannot be split two ways).
 */
const candidate = byClasses(
  (c) => new RegExp(String.raw`(?<![${c.letterOrDigit}_+*])(?:\(\+\d{1,4}\)|\+?(?:\(\d{1,5}\)|\d{1,15}))(?:(?:[ .\-\u00A0]|(?<=\))|(?=\())(?:\(\d{1,5}\)|\d{1,15}))*(?!\d)`, 'gu'),
);

/** Whether a candidate is written with its country code's `+` (`+27 …` or `(+27) …`). */
function withPlus(candidate: string): boolean {
  return candidate.startsWith('+') || candidate.startsWith('(+');
}

const GROUP = /\(\d+\)|\d+/g;

/** A phone number has at most this many digit groups (`+254 (0) 712 345 432` has five). */
const MAX_GROUPS = 8;

const fewestByRule = new WeakMap<PhoneRule, number>();

/** The fewest digits a number of this rule can have: shorter candidates (times, prices) are skipped at once. */
function fewestDigits(rule: PhoneRule): number {
  const known = fewestByRule.get(rule);
  if (known !== undefined) return known;
  const fewest = computeFewestDigits(rule);
  fewestByRule.set(rule, fewest);
  return fewest;
}

function computeFewestDigits(rule: PhoneRule): number {
  return Math.min(
    1 + rule.international_national_digits.min,
    ...rule.local_national_digits.map((digits) => 1 + digits),
    ...rule.bare_country_codes.map(({ code, national_digits }) => code.length + national_digits),
  );
}

function countDigits(text: string): number {
  let digits = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) digits += 1;
  }
  return digits;
}

interface DigitGroup {
  start: number;
  end: number;
  digits: string;
  parenthesised: boolean;
}

/** Which digits of a phone number stay: the prefix (country code or trunk), one national digit, the last three. */
interface PhoneShape {
  /** Leading digits kept whole: `+`-less country code, `00` + country code, or the trunk `0`. */
  prefixDigits: number;
  /** Digits of a `(0)` group right after the country code, kept as written. */
  skippedDigits: number;
  nationalDigits: number;
}

/**
 * Masks every phone number in `text` (see {@link PhoneRule}); the masked numbers are fixed pieces.
 *
 * @example maskPhoneNumbers('Call +254 712 345 432', floorPhoneRule) → 'Call ' + fixed '+254 7** *** 432'
 */
export function maskPhoneNumbers(text: string, rule: PhoneRule): Piece[] | undefined {
  const pieces: Piece[] = [];
  let last = 0;
  const candidates = candidate(text);
  candidates.lastIndex = 0;
  const fewest = fewestDigits(rule);
  for (let match = candidates.exec(text); match !== null; match = candidates.exec(text)) {
    if (countDigits(match[0]) < fewest) continue;
    for (const phone of phonesIn(match[0], rule)) {
      const start = match.index + phone.start;
      if (start > last) pieces.push({ text: text.slice(last, start), fixed: false });
      pieces.push({ text: phone.masked, fixed: true, source: text.slice(start, match.index + phone.end) });
      last = match.index + phone.end;
    }
  }
  if (pieces.length === 0) return undefined;
  if (last < text.length) pieces.push({ text: text.slice(last), fixed: false });
  return pieces;
}

/**
 * The phone numbers inside one candidate, leftmost first, each the longest run of groups that is a
 * valid number: `Room 12 0712 345 432` holds one, `0712 345 432 0722 118 904` two.
 */
function phonesIn(candidate: string, rule: PhoneRule): Array<{ start: number; end: number; masked: string }> {
  const groups = digitGroups(candidate);
  const phones: Array<{ start: number; end: number; masked: string }> = [];
  let first = 0;
  while (first < groups.length) {
    const found = longestPhoneFrom(candidate, groups, first, rule);
    if (found === undefined) {
      first += 1;
      continue;
    }
    const { last, shape } = found;
    const start = first === 0 && withPlus(candidate) ? 0 : groups[first]!.start;
    const end = groups[last]!.end;
    phones.push({ start, end, masked: maskDigits(candidate.slice(start, end), shape, rule.mask) });
    first = last + 1;
  }
  return phones;
}

function longestPhoneFrom(
  candidate: string,
  groups: DigitGroup[],
  first: number,
  rule: PhoneRule,
): { last: number; shape: PhoneShape } | undefined {
  for (let last = Math.min(groups.length, first + MAX_GROUPS) - 1; last >= first; last -= 1) {
    const span = groups.slice(first, last + 1);
    const shape = phoneShape(span, first === 0 && withPlus(candidate), rule);
    if (shape !== undefined) return { last, shape };
  }
  return undefined;
}

function digitGroups(candidate: string): DigitGroup[] {
  const groups: DigitGroup[] = [];
  for (const match of candidate.matchAll(GROUP)) {
    const parenthesised = match[0].startsWith('(');
    groups.push({
      start: match.index,
      end: match.index + match[0].length,
      digits: parenthesised ? match[0].slice(1, -1) : match[0],
      parenthesised,
    });
  }
  return groups;
}

/** How a run of digit groups reads as a phone number, or undefined when it is not one. */
function phoneShape(groups: DigitGroup[], plus: boolean, rule: PhoneRule): PhoneShape | undefined {
  const digits = groups.map((group) => group.digits).join('');
  const first = groups[0]!;
  if (plus || (digits.startsWith('00') && digits[2] !== '0')) {
    const exitDigits = plus ? 0 : 2;
    const afterExit = digits.slice(exitDigits);
    // A separate first group is the country code as written; otherwise the E.164 prefix table decides.
    const writtenCode = first.digits.length - exitDigits;
    const codeLength = groups.length > 1 && writtenCode >= 1 && writtenCode <= 3 ? writtenCode : countryCodeLength(afterExit);
    const second = groups[1];
    const codeIsFirstGroup = groups.length > 1 && writtenCode === codeLength;
    const skippedDigits = codeIsFirstGroup && second?.parenthesised && second.digits === '0' ? 1 : 0;
    const nationalDigits = afterExit.length - codeLength - skippedDigits;
    const { min, max } = rule.international_national_digits;
    if (nationalDigits < min || nationalDigits > max) return undefined;
    return { prefixDigits: exitDigits + codeLength, skippedDigits, nationalDigits };
  }
  if (digits.startsWith('0')) {
    const nationalDigits = digits.length - 1;
    if (digits[1] === '0' || !rule.local_national_digits.includes(nationalDigits)) return undefined;
    return { prefixDigits: 1, skippedDigits: 0, nationalDigits };
  }
  for (const { code, national_digits } of rule.bare_country_codes) {
    if (digits.startsWith(code) && digits.length === code.length + national_digits && digits[code.length] !== '0') {
      return { prefixDigits: code.length, skippedDigits: 0, nationalDigits: national_digits };
    }
  }
  if (rule.north_american_local && isNorthAmericanLocal(groups)) return { prefixDigits: 0, skippedDigits: 0, nationalDigits: 10 };
  return undefined;
}

/** `925-446-4144`, `(650) 330-1782`: area code, exchange and line as three groups; area code and exchange begin with 2–9. */
function isNorthAmericanLocal(groups: DigitGroup[]): boolean {
  if (groups.length !== 3) return false;
  const [area, exchange, line] = groups as [DigitGroup, DigitGroup, DigitGroup];
  return (
    area.digits.length === 3 &&
    exchange.digits.length === 3 &&
    line.digits.length === 4 &&
    !exchange.parenthesised &&
    !line.parenthesised &&
    area.digits[0]! >= '2' &&
    exchange.digits[0]! >= '2'
  );
}

/** Replaces the digits that do not stay with `mask`, leaving `+`, separators and parentheses in place. */
function maskDigits(written: string, shape: PhoneShape, mask: string): string {
  const firstNational = shape.prefixDigits + shape.skippedDigits;
  const lastThree = firstNational + shape.nationalDigits - 3;
  let index = 0;
  let masked = '';
  for (const character of written) {
    if (character < '0' || character > '9') {
      masked += character;
      continue;
    }
    const keep = index < firstNational || index === firstNational || index >= lastThree;
    masked += keep ? character : mask;
    index += 1;
  }
  return masked;
}
