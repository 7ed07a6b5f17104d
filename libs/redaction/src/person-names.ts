import { byClasses, type Classes } from './plain-text.js';

/** What a person's name becomes. */
export const NAME_PLACEHOLDER = '<name>';

/** Letters (any script), combining marks, and the punctuation names carry: `Ng'ang'a`, `Mary-Jane`, `St. John`. */
const nameShape = byClasses((c) => new RegExp(`^[${c.letterOrMark}][${c.letterOrMark}'’.\\- ]*$`, 'u'));

/** One letter (any script), to count a name's letters. */
const aLetter = byClasses((c) => new RegExp(`[${c.letterOnly}]`, 'gu'));

/**
 * Name particles are parts of names but also everyday words (`van`, `de`, `bin`, `wa`), so they
 * are masked only as part of a whole name, never alone.
 */
const PARTICLES = new Set([
  'al', 'bin', 'binti', 'da', 'das', 'de', 'del', 'della', 'den', 'der', 'di', 'dos', 'du', 'el', 'la', 'le', 'mac', 'mc',
  'st', 'st.', 'van', 'von', 'wa', 'ya',
]);

/**
 * A name as the redactor uses it: trimmed, inner whitespace collapsed; undefined when the text
 * cannot be a person's name (fewer than two letters, digits, symbols, a placeholder).
 */
export function cleanName(raw: string): string | undefined {
  const name = raw.normalize('NFC').trim().replace(/\s+/g, ' ');
  if (!nameShape(name).test(name)) return undefined;
  const letters = name.match(aLetter(name))?.length ?? 0;
  return letters >= 2 ? name : undefined;
}

/**
 * The strings to mask for a list of names: each whole name and each of its parts (split at spaces
 * and hyphens) of at least `minPartLength` letters that is not a particle. Longest first, so the
 * alternation prefers `Grace Achieng` over `Grace`.
 */
export function nameVariants(names: Iterable<string>, minPartLength: number): string[] {
  const variants = new Set<string>();
  for (const raw of names) {
    const name = cleanName(raw);
    if (name === undefined) continue;
    variants.add(name.toLocaleLowerCase('und'));
    for (const part of name.split(/[ -]/)) {
      const letters = part.match(aLetter(part))?.length ?? 0;
      const lower = part.toLocaleLowerCase('und');
      if (letters >= minPartLength && !PARTICLES.has(lower)) variants.add(lower);
    }
  }
  return [...variants].sort((left, right) => right.length - left.length || (left < right ? -1 : 1));
}

/**
 * A global, case-insensitive pattern matching the variants as whole words, for a text (see
 * plain-text.ts: each of its two builds is compiled on first use); undefined for none.
 */
export function namesPattern(variants: readonly string[]): ((text: string) => RegExp) | undefined {
  if (variants.length === 0) return undefined;
  const alternatives = variants.map((variant) => variant.split(' ').map(escapeRegExp).join('\\s+'));
  return byClasses((c: Classes) => new RegExp(`(?<![${c.word}])(?:${alternatives.join('|')})(?![${c.word}])`, 'giu'));
}

export function escapeRegExp(text: string): string {
  // Only syntax characters: the `u` flag refuses escapes of anything else (such as `-`).
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
