/** What a person's name becomes. */
export const NAME_PLACEHOLDER = '<name>';

/** Letters (any script), combining marks, and the punctuation names carry: `Ng'ang'a`, `Mary-Jane`, `St. John`. */
const NAME_SHAPE = /^[\p{L}\p{M}][\p{L}\p{M}'’.\- ]*$/u;

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
  if (!NAME_SHAPE.test(name)) return undefined;
  const letters = name.match(/[\p{L}]/gu)?.length ?? 0;
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
      const letters = part.match(/[\p{L}]/gu)?.length ?? 0;
      const lower = part.toLocaleLowerCase('und');
      if (letters >= minPartLength && !PARTICLES.has(lower)) variants.add(lower);
    }
  }
  return [...variants].sort((left, right) => right.length - left.length || (left < right ? -1 : 1));
}

/** A global, case-insensitive pattern matching the variants as whole words; undefined for none. */
export function namesPattern(variants: readonly string[]): RegExp | undefined {
  if (variants.length === 0) return undefined;
  const alternatives = variants.map((variant) => variant.split(' ').map(escapeRegExp).join('\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{M}\\p{N}_])`, 'giu');
}

export function escapeRegExp(text: string): string {
  // Only syntax characters: the `u` flag refuses escapes of anything else (such as `-`).
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
