import type { RedactionConfig } from '@parley/config';

/**
 * Why content of `vertical` may not leave the run, or undefined when it may: a vertical listed in
 * `redaction.restricted_verticals` (health, legal) needs its own extra rules in
 * `redaction.extras.<vertical>` first (seed 000 §4: blocked rather than shipped half-masked).
 */
export function restrictedVerticalProblem(redaction: RedactionConfig | undefined, vertical: string | undefined): string | undefined {
  if (vertical === undefined || !(redaction?.restricted_verticals ?? []).includes(vertical)) return undefined;
  if (Object.hasOwn(redaction?.extras ?? {}, vertical)) return undefined;
  return `"${vertical}" is a restricted vertical without redaction extras: add redaction.extras.${vertical} to parley.yaml`;
}
