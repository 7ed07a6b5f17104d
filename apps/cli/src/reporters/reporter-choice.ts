import { ConfigError } from '@parley/core';

export const REPORTERS = ['console', 'json', 'junit', 'markdown', 'github'] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** Reporters that print a whole document on stdout: one at a time, or the documents would mix. */
const DOCUMENTS: readonly ReporterName[] = ['json', 'junit', 'markdown'];

export interface ReporterChoice {
  reporters: ReporterName[];
  /** The reporter that owns stdout with a document (json, junit or markdown), if any. */
  document?: ReporterName;
}

/**
 * The reporters of a run from `--reporter` (repeatable, or a comma-separated list) and
 * `--format json` (the same as `--reporter json`). Without either: `console`, and `github` too
 * when running in GitHub Actions (`GITHUB_ACTIONS=true`).
 */
export function chooseReporters(flags: { reporter?: string[]; format?: string }, env: NodeJS.ProcessEnv): ReporterChoice {
  if (flags.format !== undefined && flags.format !== 'text' && flags.format !== 'json') {
    throw new ConfigError(`--format must be text or json, got "${flags.format}"`);
  }
  const named = (flags.reporter ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
  for (const name of named) {
    if (!(REPORTERS as readonly string[]).includes(name)) throw new ConfigError(`--reporter must be one of ${REPORTERS.join(', ')}, got "${name}"`);
  }
  const chosen = new Set(named as ReporterName[]);
  if (flags.format === 'json') chosen.add('json');
  if (chosen.size === 0) {
    chosen.add('console');
    if (env.GITHUB_ACTIONS === 'true') chosen.add('github');
  }
  const documents = DOCUMENTS.filter((name) => chosen.has(name));
  if (documents.length > 1) {
    throw new ConfigError(`--reporter ${documents.join(' and ')}: each prints a document on stdout, choose one (the files are in the report folder anyway)`);
  }
  return { reporters: REPORTERS.filter((name) => chosen.has(name)), ...(documents[0] !== undefined ? { document: documents[0] } : {}) };
}
