/**
 * The names `parley run --reporter NAME` accepts, in the order their output is written, apart from
 * the reporters themselves (reporters.ts, which must have one for each name): `--reporter`'s check
 * and help text need only the names, and registering `run` should not load every reporter.
 */
export const REPORTER_NAMES = ['console', 'json', 'junit', 'markdown', 'github', 'html'] as const;

export type ReporterName = (typeof REPORTER_NAMES)[number];

/** The reporter of a run without `--reporter`. */
export const DEFAULT_REPORTER: ReporterName = 'console';
