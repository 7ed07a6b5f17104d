/**
 * A problem of the run as a whole rather than of one scenario, e.g. a baseline made from another
 * configuration. Reports print it; `--strict` turns the ones that say so into exit 1.
 */
export interface RunWarning {
  /** Stable identifier, e.g. `baseline_fingerprint_mismatch`. */
  kind: string;
  message: string;
  /** True when `--strict` fails the run on it (docs/gating.md: a fingerprint mismatch does, a version mismatch does not). */
  fails_under_strict: boolean;
}

/** Whether any of these warnings makes a run exit 1. */
export function warningsFailGate(warnings: readonly RunWarning[] | undefined, options: { strict: boolean }): boolean {
  return options.strict && (warnings ?? []).some((warning) => warning.fails_under_strict);
}
