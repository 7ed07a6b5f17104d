import { realpathSync } from 'node:fs';
import { parseConfigText, SuiteSchema, type LoadedScenario, type LoadedSuite } from '@parley/config';
import { inShard, type Shard } from '@parley/gate';
import type { RunSelection } from '@parley/reports';
import { affectedScenarios, suiteConfigChange, type SuiteConfigChange } from './affected-scenarios.js';
import { changedSince, type ChangeSet } from './changed-files.js';

export interface RunSelectionOptions {
  /** `--shard I/N`. */
  shard?: Shard;
  /** `--changed-since GITREF`. */
  changedSince?: string;
}

export interface SelectedScenarios {
  scenarios: LoadedScenario[];
  /** For the report; absent when every loaded scenario runs. */
  selection?: RunSelection;
}

/**
 * Chooses which of the loaded scenarios run, after `--scenario`/`--tag` (which the loader
 * applied). This happens after loading, so that the run's config fingerprint is the suite's, the
 * same in every shard and every gate-matrix job (merge-reports refuses different fingerprints).
 *
 * 1. `--changed-since REF`: the scenarios affected by the changes since REF (see
 *    affectedScenarios); when no change affects any scenario, the advisory scenarios only, as a
 *    smoke run that reports but cannot fail.
 * 2. `--shard I/N`: of those, the ones whose id hashes into shard I.
 */
export async function selectForRun(suite: LoadedSuite, options: RunSelectionOptions): Promise<SelectedScenarios> {
  if (options.shard === undefined && options.changedSince === undefined) return { scenarios: suite.scenarios };
  let scenarios = suite.scenarios;
  let changedReport: RunSelection['changed_since'];
  if (options.changedSince !== undefined) {
    const changes = await changedSince(suite.dir, options.changedSince);
    const files = new Set(changes.files);
    const affected = affectedScenarios(suite, files, await configChangeOf(suite, changes, files));
    const smoke = affected.byScenario.size === 0;
    scenarios = smoke ? scenarios.filter((scenario) => scenario.gate === 'advisory') : scenarios.filter((scenario) => affected.byScenario.has(scenario.data.id));
    changedReport = { ref: options.changedSince, changed_files: changes.files.length, affecting: affected.affecting, smoke };
  }
  if (options.shard !== undefined) {
    const shard = options.shard;
    scenarios = scenarios.filter((scenario) => inShard(scenario.data.id, shard));
  }
  return {
    scenarios,
    selection: {
      total: suite.scenarios.length,
      selected: scenarios.length,
      ...(options.shard !== undefined ? { shard: { ...options.shard } } : {}),
      ...(changedReport !== undefined ? { changed_since: changedReport } : {}),
    },
  };
}

async function configChangeOf(suite: LoadedSuite, changes: ChangeSet, files: ReadonlySet<string>): Promise<SuiteConfigChange> {
  let file = suite.file;
  try {
    file = realpathSync(suite.file);
  } catch {
    // keep the path as loaded
  }
  if (!files.has(file)) return { kind: 'none' };
  const before = await changes.textAtBase(file);
  const parsed = before === null ? undefined : parseConfigText(before, suite.file, SuiteSchema, { format: 'yaml' }).data;
  return suiteConfigChange(parsed, suite.config);
}
