import { existsSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { globSync } from 'tinyglobby';
import { ConfigError, scenarioFileId, type RunMode } from '@parley/core';
import { readConfigFile, ScenarioSchema, SuiteSchema, type ScenarioFile, type SuiteFile } from '@parley/config';
import { rerecordingsDir } from './rerecording.js';

/** Where the files of a stored run's scenario are, for triage. */
export interface TriageLocation {
  /** Absolute folder of parley.yaml. */
  suiteDir: string;
  config: SuiteFile;
  mode: RunMode;
  /** The run's out dir (its reports), absolute. */
  outDir: string;
  /** Where the run kept its re-recordings (see `rerecordingsDir`). */
  keepDir: string;
  /** The suite's recordings folder, absolute. */
  recordingsDir: string;
  /** `scenarios/…/<scenario_id>.yaml`; undefined when no file of the suite's scenarios glob has that name. */
  scenarioFile: string | undefined;
  /** The scenario as its file says now; undefined when the file is missing or does not validate. */
  scenario: ScenarioFile | undefined;
}

/** What triage knows of a stored run (a `RunRow` of @parley/store fits). */
export interface StoredRunFacts {
  id: string;
  mode: RunMode;
  out_dir: string;
  options: Record<string, unknown>;
}

export interface TriagePaths {
  /** The suite to use when the run did not record its folder, or it is gone (the TUI's suite). */
  suitePath: string;
  /** The history the run is stored in (`.parley/parley.db`): its re-recordings are beside it. */
  storePath: string;
  /** Relative paths are taken from here. */
  cwd: string;
}

/**
 * Finds a stored run's suite, out dir, re-recordings and scenario file. The suite is the folder the
 * run recorded (`suite_dir` in its options), else `paths.suitePath`. An unreadable parley.yaml is
 * a ConfigError with its location.
 */
export function locateTriage(run: StoredRunFacts, scenarioId: string, paths: TriagePaths): TriageLocation {
  const { cwd } = paths;
  const recorded = run.options['suite_dir'];
  const suiteFile = suiteFileOf(resolve(cwd, typeof recorded === 'string' && existsSync(recorded) ? recorded : paths.suitePath));
  const parsed = readConfigFile(suiteFile, SuiteSchema, { format: 'yaml' });
  const errors = parsed.issues.filter((issue) => issue.severity !== 'warning');
  if (parsed.data === undefined || errors.length > 0) throw new ConfigError(errors.length > 0 ? errors : [{ file: suiteFile, message: 'not a suite file' }]);
  const config = parsed.data;
  const suiteDir = dirname(suiteFile);
  const inSuite = (path: string): string => (isAbsolute(path) ? path : resolve(suiteDir, path));
  const scenarioFile = findScenarioFile(suiteDir, config.scenarios, scenarioFileId(scenarioId));
  const scenario = scenarioFile === undefined ? undefined : readConfigFile(scenarioFile, ScenarioSchema, { format: 'yaml' }).data;
  return {
    suiteDir,
    config,
    mode: run.mode,
    outDir: resolve(cwd, run.out_dir),
    keepDir: rerecordingsDir(resolve(cwd, paths.storePath), run.id),
    recordingsDir: inSuite(config.recordings),
    scenarioFile,
    scenario,
  };
}

function suiteFileOf(path: string): string {
  if (existsSync(path) && statSync(path).isDirectory()) return join(path, 'parley.yaml');
  return path;
}

/** The file of the suite's scenarios glob named `<scenario_id>.<ext>` (the id equals the file stem). */
export function findScenarioFile(suiteDir: string, scenariosGlob: string, scenarioId: string): string | undefined {
  const files = globSync(scenariosGlob, { cwd: suiteDir, absolute: true, onlyFiles: true }).sort();
  return files.find((file) => basename(file, extname(file)) === scenarioId);
}
