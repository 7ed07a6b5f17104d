import type { RedactionConfig } from './redaction-schema.js';

/**
 * Code points Unicode says to render as nothing when not supported (zero-width space and joiners,
 * soft hyphen, variation selectors, bidi marks…): `de\u200bntal` looks like `dental`, so it is read
 * as `dental`.
 */
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The form verticals are compared in: default-ignorable code points dropped, Unicode NFKC, case
 * folded (upper then lower case, so that `ß` and `SS` meet), trimmed. `Medical`, ` medical `, `MEDICAL` and `ｍｅｄｉｃａｌ` (full-width)
 * are one vertical: a restriction must not be dodged by how a word is spelled.
 *
 * @example verticalKey(' Dental ') === verticalKey('DENTAL') // true
 */
export function verticalKey(vertical: string): string {
  const visible = (text: string): string => text.replace(DEFAULT_IGNORABLE, '');
  return visible(visible(vertical).normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC')).trim();
}

/** The entry of `names` that is the same vertical as `vertical` (see {@link verticalKey}), if any. */
function matchingVertical(names: Iterable<string>, vertical: string): string | undefined {
  const key = verticalKey(vertical);
  for (const name of names) if (verticalKey(name) === key) return name;
  return undefined;
}

/**
 * Why content of `vertical` may not leave the run, or undefined when it may: a vertical listed in
 * `redaction.restricted_verticals` (health, legal) needs its own extra rules in
 * `redaction.extras.<vertical>` first (docs/privacy.md: blocked rather than shipped half-masked).
 * Verticals are compared by {@link verticalKey}, in the list, in the extras and in what is read.
 */
export function restrictedVerticalProblem(redaction: RedactionConfig | undefined, vertical: string | undefined): string | undefined {
  if (vertical === undefined) return undefined;
  const restricted = matchingVertical(redaction?.restricted_verticals ?? [], vertical);
  if (restricted === undefined) return undefined;
  if (matchingVertical(Object.keys(redaction?.extras ?? {}), vertical) !== undefined) return undefined;
  const named = vertical === restricted ? `"${vertical}"` : `"${vertical}" (restricted as "${restricted}")`;
  return `${named} is a restricted vertical without redaction extras: add redaction.extras.${restricted} to parley.yaml`;
}
