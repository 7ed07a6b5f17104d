import type { SuiteSettings } from '@parley/calibration';
import { locateTriage, loadRerecording, type Rerecording, type TriageLocation } from '@parley/runner';
import { openStore, storeExists, type FlakyMark, type RunRow } from '@parley/store';

/** What the triage actions of one scenario need to know, read when the scenario opens and after each action. */
export interface TriageFacts {
  run?: RunRow;
  flakyMark?: FlakyMark;
  location?: TriageLocation;
  rerecording?: Rerecording;
  /** Why the suite or the run's files could not be read (actions that need them say so). */
  problem?: string;
}

/**
 * Reads the run, the scenario's flaky mark, where its suite and files are, and the re-recording
 * the run kept of it. Every piece that cannot be read leaves the others usable: a run whose suite
 * moved can still be marked flaky.
 */
export function readTriageFacts(input: { storePath: string; suitePath: string; cwd: string; runId: string; scenarioId: string }): TriageFacts {
  const facts: TriageFacts = {};
  if (storeExists(input.storePath)) {
    try {
      const store = openStore(input.storePath);
      try {
        facts.run = store.getRun(input.runId);
        if (facts.run) facts.flakyMark = store.flakyMark(facts.run.suite, input.scenarioId);
      } finally {
        store.close();
      }
    } catch (error) {
      return { problem: `cannot read the run history: ${messageOf(error)}` };
    }
  }
  if (facts.run === undefined) return { ...facts, problem: `run ${input.runId} is not in the run history` };
  try {
    facts.location = locateTriage(facts.run, input.scenarioId, { suitePath: input.suitePath, storePath: input.storePath, cwd: input.cwd });
    facts.rerecording = loadRerecording({ ...facts.location, scenarioId: input.scenarioId });
  } catch (error) {
    facts.problem = `cannot read the suite of run ${facts.run.id}: ${messageOf(error)}`;
  }
  return facts;
}

/** The suite settings calibration masks with (its redactor and restricted verticals). */
export function suiteSettingsOf(location: TriageLocation): SuiteSettings {
  return { dir: location.suiteDir, config: location.config };
}

export function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
