import { resolve } from 'node:path';
import type { LoadedScenario, LoadedSuite } from '@parley/config';
import { ConfigError } from '@parley/core';
import type { Shard } from '@parley/gate';
import type { RunSelection } from '@parley/reports';
import { baselineIn, isFolder, prepareBaselineGating, type BaselineGating } from './baseline-gating.js';
import { selectForRun } from './run-selection.js';

/** The CI-gating options of a run (docs/gating.md). */
export interface GatingOptions {
  suitePath: string;
  strict?: boolean;
  /** `--baseline FILE`. */
  baseline?: string;
  /** `--export-baseline FILE`. */
  exportBaseline?: string;
  /** `--shard I/N`. */
  shard?: Shard;
  /** `--changed-since GITREF`. */
  changedSince?: string;
}

/** What a run gates on, decided before any scenario starts. */
export interface GatePlan {
  /** The scenarios that run. */
  scenarios: LoadedScenario[];
  selection?: RunSelection;
  baseline?: BaselineGating;
}

/**
 * Everything about gating that can fail before a scenario runs, so that a bad flag, an unknown
 * git ref or an unusable baseline is exit 2 without a wasted (and possibly paid) run:
 * `--baseline` with `--export-baseline`, the scenario selection (`--changed-since`, `--shard`),
 * and the baseline file.
 */
export async function planGate(
  suite: LoadedSuite,
  options: GatingOptions,
  facts: { cwd: string; fingerprint: string; parleyVersion: string; parleyCommand?: () => string },
): Promise<GatePlan> {
  if (options.baseline !== undefined && options.exportBaseline !== undefined) {
    throw new ConfigError('--baseline and --export-baseline cannot be used together: comparing against a baseline and overwriting it in one run is how a regression becomes the new baseline');
  }
  if (options.exportBaseline !== undefined && isFolder(resolve(facts.cwd, options.exportBaseline))) {
    // Refused before the run: writing over a folder fails only once every scenario has run (and been paid for).
    throw new ConfigError(`--export-baseline ${options.exportBaseline} is a folder; give the baseline file, e.g. --export-baseline ${baselineIn(options.exportBaseline)}`);
  }
  const baseline =
    options.baseline === undefined
      ? undefined
      : prepareBaselineGating({
          file: resolve(facts.cwd, options.baseline),
          fileAsGiven: options.baseline,
          suiteAsGiven: options.suitePath,
          suite,
          fingerprint: facts.fingerprint,
          parleyVersion: facts.parleyVersion,
          strict: options.strict ?? false,
          ...(facts.parleyCommand ? { parleyCommand: facts.parleyCommand() } : {}),
        });
  const selected = await selectForRun(suite, {
    ...(options.shard !== undefined ? { shard: options.shard } : {}),
    ...(options.changedSince !== undefined ? { changedSince: options.changedSince } : {}),
  });
  return {
    scenarios: selected.scenarios,
    ...(selected.selection !== undefined ? { selection: selected.selection } : {}),
    ...(baseline !== undefined ? { baseline } : {}),
  };
}
