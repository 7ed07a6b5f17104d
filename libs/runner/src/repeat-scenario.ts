import type { ScenarioResult } from '@parley/core';
import { combineAttemptResults } from '@parley/gate';
import { createCassette, type ScenarioCassette } from './cassette.js';

/** A scenario's reported result and, under `--repeat N`, the N attempts it combines. */
export interface RepeatedRun {
  result: ScenarioResult;
  attempts?: ScenarioResult[];
}

export interface RepeatOptions {
  /** Ctrl-C: no further attempt starts, and a scenario cut short is not reported at all. */
  signal?: AbortSignal;
  /** Told of each finished attempt (the run stores it as attempt 1..N). */
  onAttempt?: (attempt: number, result: ScenarioResult) => void;
}

/**
 * Runs one scenario `times` times, one attempt after another (attempts share the scenario's
 * recording in order, see cassette.ts, so they never overlap), and combines them: all pass → pass,
 * all fail → fail, mixed → flaky (see combineAttemptResults). With `times` 1 it is one plain run.
 *
 * Returns null when Ctrl-C stopped the scenario before all its attempts finished: a partial set
 * of attempts would misreport a flaky scenario as stable.
 */
export async function runRepeated(
  times: number,
  runAttempt: (attempt: number, cassette: ScenarioCassette | undefined) => Promise<ScenarioResult>,
  options: RepeatOptions = {},
): Promise<RepeatedRun | null> {
  if (times <= 1) return { result: await runAttempt(1, undefined) };
  const cassette = createCassette();
  const attempts: ScenarioResult[] = [];
  for (let attempt = 1; attempt <= times; attempt += 1) {
    if (options.signal?.aborted) return null;
    cassette.startAttempt();
    const result = await runAttempt(attempt, cassette);
    if (options.signal?.aborted && result.status === 'error') return null;
    attempts.push(result);
    options.onAttempt?.(attempt, result);
  }
  return { result: combineAttemptResults(attempts), attempts };
}
