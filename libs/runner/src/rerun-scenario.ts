import { existsSync } from 'node:fs';
import type { ScenarioResult } from '@parley/core';
import { recordingPath } from '@parley/providers';
import type { RunOptions } from './run-options.js';
import type { StoredRunFacts, TriageLocation } from './triage-location.js';

/** How a scenario is run again from triage: replayed from its recording, or live against the models. */
export type RerunMode = 'replay' | 'live';

export interface RerunChoice {
  mode: RerunMode;
  /** `--repeat N`: N attempts, combined (all pass → pass, all fail → fail, mixed → flaky). */
  repeat: number;
}

/** What a re-run should cost, said before it starts. */
export interface RerunEstimate {
  /** USD for all attempts; null when the earlier result's cost is unknown (a model without a price). */
  usd: number | null;
  /** USD of one attempt (what the scenario cost per attempt in the run it is re-run from). */
  perAttemptUsd: number | null;
  /** One line saying where the figure comes from. */
  basis: string;
}

/** Most attempts a re-run from triage takes (`--repeat` itself has no limit; a key press should). */
export const MAX_RERUN_REPEAT = 20;

/**
 * The modes a scenario can be re-run in: replay only when the suite holds its recording (a
 * replay without one errors on its first call), live always.
 */
export function rerunModes(location: Pick<TriageLocation, 'recordingsDir'>, scenarioId: string): RerunMode[] {
  return existsSync(recordingPath(location.recordingsDir, scenarioId)) ? ['replay', 'live'] : ['live'];
}

/**
 * What a re-run will cost: nothing in replay (every call comes from the recording); live, what
 * the scenario cost per attempt in the run it is re-run from, times the attempts. The earlier
 * result's cost is the recorded calls' tokens at the suite's prices (a replay reports the cost of
 * the calls it replays), so it is the live price of the same conversation; a conversation that
 * goes differently costs more or less.
 *
 * @example estimateRerunCost({ cost: { usd: 0.04, … } } as ScenarioResult, 1, { mode: 'live', repeat: 3 }) // usd 0.12
 */
export function estimateRerunCost(previous: Pick<ScenarioResult, 'cost' | 'scenario_id'>, previousAttempts: number, choice: RerunChoice): RerunEstimate {
  if (choice.mode === 'replay') return { usd: 0, perAttemptUsd: 0, basis: 'a replay answers every call from the recording' };
  const attempts = Math.max(1, previousAttempts);
  const perAttemptUsd = previous.cost.usd === null ? null : previous.cost.usd / attempts;
  const earlier = attempts > 1 ? `per attempt of ${attempts}` : '';
  if (perAttemptUsd === null) return { usd: null, perAttemptUsd, basis: `unknown: a model ${previous.scenario_id} called has no price in the suite` };
  return {
    usd: perAttemptUsd * choice.repeat,
    perAttemptUsd,
    basis: `${choice.repeat} × what ${previous.scenario_id} cost${earlier ? ` ${earlier}` : ''} before`,
  };
}

/**
 * The `runSuite` options of a re-run of one scenario of a stored run: the run's suite, this
 * scenario only, the chosen mode and attempts, and the run's baseline, strictness and budget
 * (so the new result is gated as the old one was). The new run is stored like any other.
 */
export function rerunOptions(run: StoredRunFacts, scenarioId: string, location: Pick<TriageLocation, 'suiteDir'>, choice: RerunChoice, storePath: string): RunOptions {
  const stored = run.options;
  return {
    suitePath: location.suiteDir,
    globs: [escapeGlob(scenarioId)],
    mode: choice.mode,
    storePath,
    ...(choice.repeat > 1 ? { repeat: choice.repeat } : {}),
    ...(typeof stored['baseline'] === 'string' ? { baseline: stored['baseline'] } : {}),
    ...(stored['strict'] === true ? { strict: true } : {}),
    ...(typeof stored['budget_usd'] === 'number' ? { budgetUsd: stored['budget_usd'] } : {}),
  };
}

/** Attempts a stored run made of each scenario (`--repeat`, 1 when not given). */
export function storedRepeat(run: StoredRunFacts): number {
  const repeat = run.options['repeat'];
  return typeof repeat === 'number' && Number.isInteger(repeat) && repeat > 1 ? repeat : 1;
}

/** A scenario id as a glob that matches only itself. */
function escapeGlob(id: string): string {
  return id.replace(/[\\*?[\]{}()!+@|]/g, (character) => `\\${character}`);
}
