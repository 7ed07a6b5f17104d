import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LoadedSuite } from '@parley/config';
import { ConfigError } from '@parley/core';
import { promptVersion } from '@parley/judge';
import { floorRedactor, suiteRedactor, type Redactor } from '@parley/redaction';
import { readReportFile, type RunReport } from '@parley/reports';
import { loadSuiteForRun } from '@parley/runner';
import { defaultStorePath, openStore, storeExists } from '@parley/store';
import { datasetScenarios, type DatasetScenario } from './langfuse-dataset.js';

/** A finished run as an export reads it. */
export interface RunToExport {
  report: RunReport;
  tenants: Map<string, string>;
  promptVersions: Map<string, string>;
  /** The suite's redactor when the suite could be loaded, else the floor's (and a note saying so). */
  redactor: Redactor;
  /** The suite's scenarios as dataset items (masked), when the suite could be loaded. */
  scenarios?: Map<string, DatasetScenario>;
  notes: string[];
}

export interface LoadRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `.parley/parley.db` under cwd unless given. */
  storePath?: string;
  /** The suite folder; default: the folder the run was made from. */
  suite?: string;
  /** How the person runs Parley (`parley` or `npx parley`), for the commands its errors name; `parley` when left out. */
  parleyCommand?: () => string;
}

/**
 * Finds a run by id (or unique prefix) in the store, reads its `report.json` (already redacted,
 * without `metadata_only` content), the tenant each scenario ran under, the agents' prompt
 * versions, and the suite's redactor. A report folder or file is accepted instead of an id (a CI
 * artefact): tenants are then unknown.
 */
export async function loadRunForExport(idOrReport: string, options: LoadRunOptions): Promise<RunToExport> {
  const notes: string[] = [];
  const storePath = options.storePath ?? defaultStorePath(options.cwd);
  const asPath = resolve(options.cwd, idOrReport);
  let report: RunReport;
  const tenants = new Map<string, string>();
  let suiteDir: string | undefined;
  if (existsSync(asPath)) {
    report = readReportFile(asPath);
  } else {
    if (!storeExists(storePath)) throw new ConfigError(`no run "${idOrReport}": there is no ${storePath} here, and no report folder of that name`);
    const store = openStore(storePath);
    try {
      const run = store.getRun(idOrReport);
      if (!run) throw new ConfigError(`no run with id "${idOrReport}" (see \`${options.parleyCommand?.() ?? 'parley'} runs list\`)`);
      if (!run.finished) throw new ConfigError(`run ${run.id} has not finished: finish it with \`${options.parleyCommand?.() ?? 'parley'} run --resume ${run.id}\` before exporting it`);
      report = readReportFile(run.out_dir);
      for (const result of store.getScenarioResults(run.id, { omitMetadataOnlyTranscripts: true })) {
        if (result.session) tenants.set(result.scenario_id, result.session.tenant);
      }
      const dir = run.options['suite_dir'];
      if (typeof dir === 'string') suiteDir = dir;
    } finally {
      store.close();
    }
  }
  const suitePath = options.suite !== undefined ? resolve(options.cwd, options.suite) : suiteDir;
  let suite: LoadedSuite | undefined;
  if (suitePath !== undefined) {
    try {
      suite = loadSuiteForRun(suitePath);
    } catch (error) {
      if (options.suite !== undefined) throw error;
      notes.push(`the suite at ${suitePath} could not be loaded, so content is masked by the redactor's floor rules only`);
    }
  } else {
    notes.push('the suite is unknown (pass --suite DIR), so content is masked by the redactor\'s floor rules only');
  }
  if (suite && suite.config.suite !== report.suite) {
    throw new ConfigError(`--suite ${suitePath} is suite "${suite.config.suite}", but run ${report.run_id} is of suite "${report.suite}"`);
  }
  const promptVersions = new Map<string, string>();
  if (suite) {
    for (const agent of new Set(report.results.map((result) => result.agent))) {
      // An agent without a file of its own (http, command, a prompt agent without a system prompt)
      // has no version Parley knows: `gen_ai.agent.version` is then left out, not made up.
      const file = agentFile(suite, agent);
      if (file !== undefined) promptVersions.set(agent, await promptVersion(file, agent));
    }
  }
  const redactor = suite ? suiteRedactor(suite, { env: options.env }) : floorRedactor();
  return {
    report,
    tenants,
    promptVersions,
    redactor,
    ...(suite ? { scenarios: datasetScenarios(suite, redactor) } : {}),
    notes,
  };
}

function agentFile(suite: LoadedSuite, name: string): string | undefined {
  const agent = suite.config.agents[name];
  if (agent === undefined) return undefined;
  if ('system_prompt' in agent && agent.system_prompt !== undefined) return resolve(suite.dir, agent.system_prompt);
  if (agent.kind === 'module') return resolve(suite.dir, agent.module);
  return undefined;
}
