import { maskPhoneNumbers } from './phone-numbers.js';
import { rememberedNameSpans } from './name-cues.js';
import { NAME_PLACEHOLDER, nameVariants, namesPattern } from './person-names.js';
import type { RedactionRule } from './redaction-rule.js';
import { joinPieces, mapFreePieces, piecesOf, splitMatches, splitSpans, type Piece } from './text-pieces.js';

/** One rule, ready to run on a free piece of text: the pieces it makes of it, or undefined when it changes nothing. */
export type CompiledRule = (text: string) => Piece[] | undefined;

/** What the whole text becomes if redaction cannot finish: nothing of it is let through. */
export const FAIL_CLOSED = '<redacted>';

/**
 * A text that keeps changing after this many passes is given up on (see {@link redactText});
 * real text settles in two (one that changes, one that confirms).
 */
const MAX_PASSES = 6;

/**
 * Compiles rules once for many texts. The names rule is compiled with `names`; a pattern that does
 * not compile throws here (configuration time), never while redacting.
 */
export function compileRules(rules: readonly RedactionRule[], names: readonly string[]): CompiledRule[] {
  return rules.flatMap((rule) => {
    const compiled = compileRule(rule, names);
    return compiled === undefined ? [] : [named(rule.name, compiled)];
  });
}

function compileRule(rule: RedactionRule, names: readonly string[]): CompiledRule | undefined {
  switch (rule.kind) {
    case 'pattern': {
      const pattern = globalRegExp(rule.pattern, rule.flags);
      return triggered(rule.trigger, (text) => splitMatches(text, pattern, () => rule.replacement));
    }
    case 'keep': {
      const pattern = globalRegExp(rule.pattern, rule.flags);
      return triggered(rule.trigger, (text) => splitMatches(text, pattern, (match) => match[0]));
    }
    case 'phone':
      return (text) => maskPhoneNumbers(text, rule);
    case 'names': {
      const pattern = namesPattern(nameVariants(names, rule.min_part_length));
      return pattern ? (text) => splitMatches(text, pattern(text), () => NAME_PLACEHOLDER) : undefined;
    }
    case 'name_cues':
      return (text) => splitSpans(text, rememberedNameSpans(text, rule), NAME_PLACEHOLDER);
    case 'digit_run': {
      const pattern = new RegExp(`\\d{${rule.min_length},}`, 'g');
      return (text) => splitMatches(text, pattern, (match) => rule.mask.repeat(match[0].length));
    }
  }
}

/** The rule with its name on every piece it fixes (for {@link redactionPieces}). */
function named(name: string, rule: CompiledRule): CompiledRule {
  return (text) => {
    const pieces = rule(text);
    if (pieces === undefined) return undefined;
    for (const piece of pieces) if (piece.fixed) piece.rule ??= name;
    return pieces;
  };
}

/**
 * Redacts one text. Each pass fixes the placeholders already present, then runs every rule over
 * what the earlier rules left free. Passes repeat until the text stops changing, which is what
 * makes redaction idempotent: the result is a text that a further pass leaves as it is, so
 * redacting it again returns it unchanged. Suite rules can in principle keep rewriting each
 * other's output; a text that has not settled after a few passes, or any internal failure, gives
 * {@link FAIL_CLOSED} (itself settled) instead of partly masked text. Never throws.
 */
export function redactText(text: string, rules: readonly CompiledRule[]): string {
  try {
    let current = typeof text === 'string' ? text : String(text);
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const next = redactOnce(current, rules);
      if (next === current) return current;
      current = next;
    }
    return FAIL_CLOSED;
  } catch {
    return FAIL_CLOSED;
  }
}

function redactOnce(text: string, rules: readonly CompiledRule[]): string {
  if (text === '') return text;
  return joinPieces(redactionPieces(text, rules));
}

/**
 * One pass of the rules over `text`, as pieces: each fixed piece says what it stands for
 * (`source`) and which rule fixed it. Joined, the pieces are the redacted text (real text settles
 * in one pass); this is what measuring the redactor against a labelled corpus needs.
 */
export function redactionPieces(text: string, rules: readonly CompiledRule[]): readonly Piece[] {
  let pieces: readonly Piece[] = piecesOf(text);
  for (const rule of rules) pieces = mapFreePieces(pieces, rule);
  return pieces;
}

/** A rule that only runs on text containing its trigger; other text stays one free piece. */
function triggered(trigger: string | undefined, rule: CompiledRule): CompiledRule {
  if (trigger === undefined) return rule;
  const test = new RegExp(trigger, 'i');
  return (text) => (test.test(text) ? rule(text) : undefined);
}

function globalRegExp(pattern: string, flags = ''): RegExp {
  return new RegExp(pattern, flags.includes('g') ? flags : `${flags}g`);
}
