import { BASELINE_SCHEMA_VERSION, BaselineSchema, parseConfigText, readTextFile, type BaselineFile } from '@parley/config';
import { ConfigError } from '@parley/core';
import type { RunWarning } from './run-warnings.js';

export interface BaselineExpectation {
  /** The suite of the run: a baseline of another suite is refused. */
  suite: string;
  /** The command that writes a fresh baseline, quoted in every error so the fix is one copy away. */
  regenerateCommand: string;
}

/**
 * Reads and checks a baseline file (`--baseline FILE`). Every problem is a ConfigError (exit 2)
 * with the file and, where there is one, the line and column:
 *
 * - unreadable file or invalid JSON;
 * - a `schema_version` this Parley does not read, with how to regenerate the file or upgrade;
 * - a baseline of another suite, with how to regenerate it;
 * - any other schema problem (a missing field, a score outside [0, 1], a duplicate entry).
 *
 * The version checks come before the full schema: a file of another schema version is expected
 * to look different, and "regenerate it" is the useful message, not its field-by-field complaints.
 */
export function readBaselineFile(file: string, expected: BaselineExpectation): BaselineFile {
  const text = readTextFile(file);
  if (typeof text !== 'string') {
    throw new ConfigError({ file, message: `cannot read the baseline: ${text.problem}; create it with: ${expected.regenerateCommand}` });
  }
  return parseBaselineText(text, file, expected);
}

/** {@link readBaselineFile} for text already in hand. */
export function parseBaselineText(text: string, file: string, expected: BaselineExpectation): BaselineFile {
  const parsed = parseConfigText(text, file, BaselineSchema, { format: 'json' });
  const raw = parsed.raw;
  if (raw === undefined) throw new ConfigError(parsed.issues);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError({ file, line: 1, column: 1, message: `not a Parley baseline (expected a JSON object); regenerate it with: ${expected.regenerateCommand}` });
  }
  const record = raw as Record<string, unknown>;

  const version = record['schema_version'];
  if (version !== BASELINE_SCHEMA_VERSION) {
    const found = version === undefined ? 'has no schema_version' : `has schema_version ${JSON.stringify(version)}`;
    const newer = typeof version === 'number' && version > BASELINE_SCHEMA_VERSION ? ' or upgrade Parley (the file comes from a newer version)' : '';
    throw new ConfigError(
      parsed.issueAt(version === undefined ? [] : ['schema_version'], `this baseline ${found}, but this Parley reads schema_version ${BASELINE_SCHEMA_VERSION}; regenerate it with: ${expected.regenerateCommand}${newer}`),
    );
  }
  const suite = record['suite'];
  if (typeof suite === 'string' && suite !== expected.suite) {
    throw new ConfigError(
      parsed.issueAt(['suite'], `this baseline is of suite "${suite}", but the run is of suite "${expected.suite}": baselines never compare across suites; regenerate it with: ${expected.regenerateCommand}`),
    );
  }
  if (parsed.data === undefined) throw new ConfigError(parsed.issues);
  return parsed.data;
}

export interface BaselineRunFacts {
  /** The run's `config_fingerprint`. */
  fingerprint: string;
  parleyVersion: string;
  /** The baseline file as the user named it, for messages. */
  file: string;
  regenerateCommand: string;
}

/**
 * What a readable baseline of the right suite may still disagree on (docs/gating.md, "Baselines"): another
 * configuration (warn; fails under `--strict`) and another Parley version (warn only: minor drift
 * usually still compares).
 */
export function baselineWarnings(baseline: BaselineFile, run: BaselineRunFacts): RunWarning[] {
  const warnings: RunWarning[] = [];
  if (baseline.config_fingerprint !== run.fingerprint) {
    warnings.push({
      kind: 'baseline_fingerprint_mismatch',
      message:
        `${run.file} was made from another configuration (config_fingerprint ${shortFingerprint(baseline.config_fingerprint)}, ` +
        `this run ${shortFingerprint(run.fingerprint)}): parley.yaml, a scenario or a metric version changed since; ` +
        `once the change is on the baseline branch, regenerate it with: ${run.regenerateCommand}`,
      fails_under_strict: true,
    });
  }
  if (baseline.parley_version !== run.parleyVersion) {
    warnings.push({
      kind: 'baseline_version_mismatch',
      message: `${run.file} was written by Parley ${baseline.parley_version}, this is Parley ${run.parleyVersion}: scores may not be fully comparable`,
      fails_under_strict: false,
    });
  }
  return warnings;
}

/** `sha256:3fa9c2d1e0b4…`: enough to tell two fingerprints apart in a message. */
function shortFingerprint(fingerprint: string): string {
  return fingerprint.length > 19 ? `${fingerprint.slice(0, 19)}…` : fingerprint;
}
