import type { Gate, InterruptSignal, RunStatus, Status } from '@parley/core';
import { warningsFailGate, type RunWarning } from './run-warnings.js';
import { statusSeverity } from './status-severity.js';

/** Every blocking scenario passed, warned or was flaky (and `--strict` was off). */
export const EXIT_OK = 0;
/** A blocking scenario failed or errored (or, under `--strict`, warned or was flaky). */
export const EXIT_GATE_FAILED = 1;
/** Invalid YAML or schema, unknown agent or metric, incompatible flags or baseline, unreadable file. */
export const EXIT_CONFIG_ERROR = 2;
/** An unexpected error (a bug, a module that does not load): like a configuration error, the run could not be evaluated. */
export const EXIT_INTERNAL_ERROR = EXIT_CONFIG_ERROR;
/** Stopped by Ctrl-C (128 + SIGINT), the shell convention; finished results are kept. */
export const EXIT_INTERRUPTED = 130;
/** Stopped by SIGTERM (128 + 15: what CI runners and `timeout` send); handled like Ctrl-C. */
export const EXIT_TERMINATED = 143;

/** The exit code of a run the given signal stopped: 130 for Ctrl-C, 143 for SIGTERM. */
export function interruptedExitCode(signal: InterruptSignal): typeof EXIT_INTERRUPTED | typeof EXIT_TERMINATED {
  return signal === 'SIGTERM' ? EXIT_TERMINATED : EXIT_INTERRUPTED;
}

/** Whether an exit code says the run was stopped by Ctrl-C or SIGTERM (its unfinished scenarios never ran). */
export function isInterruptedExit(exitCode: number | undefined): boolean {
  return exitCode === EXIT_INTERRUPTED || exitCode === EXIT_TERMINATED;
}

/** The status of a run: `interrupted` when a signal stopped it, else {@link runStatus} of its results. */
export function finishedRunStatus(
  results: readonly GatedResult[],
  warnings: readonly RunWarning[] = [],
  interrupted: InterruptSignal | undefined = undefined,
): RunStatus {
  return interrupted !== undefined ? 'interrupted' : runStatus(results, warnings);
}

/** What the gate needs to know about one scenario. */
export interface GatedResult {
  status: Status;
  gate: Gate;
}

export interface GateOptions {
  /** `--strict`: zero tolerance, `warn` and `flaky` fail the gate too. */
  strict: boolean;
  /** Problems of the run as a whole (a baseline of another configuration); some fail it under `--strict`. */
  warnings?: readonly RunWarning[];
}

/**
 * Whether this scenario alone makes the run exit 1 (docs/gating.md, "Statuses"). Advisory scenarios never do;
 * blocking ones do on `fail` or `error`, and under `--strict` also on `warn` or `flaky`. `skipped`
 * never does: a skipped scenario was not judged (the budget or a filter stopped it), and the
 * report says so.
 *
 * This is the one place that decides whether a status blocks; the exit code, JUnit failures and
 * the summary all ask it.
 */
export function failsGate(result: GatedResult, options: GateOptions): boolean {
  if (result.gate === 'advisory') return false;
  switch (result.status) {
    case 'fail':
    case 'error':
      return true;
    case 'warn':
    case 'flaky':
      return options.strict;
    case 'pass':
    case 'skipped':
      return false;
  }
}

/**
 * The run's exit code from its scenario results: 1 when any scenario fails the gate, else 0.
 * Configuration errors (2) and interruption (130) are decided before any result exists, so they
 * are constants here rather than outcomes.
 *
 * @example exitCodeFor([{ status: 'warn', gate: 'blocking' }], { strict: true }) === 1
 */
export function exitCodeFor(results: readonly GatedResult[], options: GateOptions): typeof EXIT_OK | typeof EXIT_GATE_FAILED {
  if (warningsFailGate(options.warnings, options)) return EXIT_GATE_FAILED;
  return results.some((result) => failsGate(result, options)) ? EXIT_GATE_FAILED : EXIT_OK;
}

/**
 * The run's overall status: the most severe status among blocking scenarios that ran
 * (`error` > `fail` > `flaky` > `warn` > `pass`). Advisory scenarios do not count, so a run whose
 * only failures are advisory is `pass`. A run where nothing ran is `skipped`; a run where only
 * advisory scenarios ran (a smoke run) is `pass`. A run warning that `--strict` fails on (see
 * {@link RunWarning}) makes a passing run `warn`, so that the status and the exit code agree.
 */
export function runStatus(results: readonly GatedResult[], warnings: readonly RunWarning[] = []): Status {
  const ran = results.filter((result) => result.status !== 'skipped');
  if (ran.length === 0) return 'skipped';
  let worst: Status = warningsFailGate(warnings, { strict: true }) ? 'warn' : 'pass';
  for (const result of ran) {
    if (result.gate === 'blocking' && statusSeverity(result.status) > statusSeverity(worst)) worst = result.status;
  }
  return worst;
}
