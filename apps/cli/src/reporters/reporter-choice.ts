import { ConfigError } from '@parley/core';
import type { Output } from '../output/output.js';
import type { Reporter, ReporterContext } from './reporter.js';
import { DEFAULT_REPORTER, REPORTER_NAMES, type ReporterName } from './reporter-names.js';
import { REPORTERS } from './reporters.js';

export interface ReporterChoice {
  reporters: Reporter[];
  /** The reporter that owns stdout with a document (json, junit or markdown), if any. */
  document?: Reporter;
}

/**
 * The reporters of a run from `--reporter` (repeatable, or a comma-separated list) and
 * `--format json` (the same as `--reporter json`). Without either: `console`, and `github` too
 * when running in GitHub Actions (`GITHUB_ACTIONS=true`). Reporters that own stdout print one
 * document each: at most one of them, or the documents would mix.
 */
export function chooseReporters(flags: { reporter?: string[]; format?: string }, context: { cwd: string; env: NodeJS.ProcessEnv; output: Output; parleyCommand?: () => string }): ReporterChoice {
  if (flags.format !== undefined && flags.format !== 'text' && flags.format !== 'json') {
    throw new ConfigError(`--format must be text or json, got "${flags.format}"`);
  }
  const named = (flags.reporter ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
  for (const name of named) {
    if (!(REPORTER_NAMES as readonly string[]).includes(name)) throw new ConfigError(`--reporter must be one of ${REPORTER_NAMES.join(', ')}, got "${name}"`);
  }
  const chosen = new Set(named as ReporterName[]);
  if (flags.format === 'json') chosen.add('json');
  if (chosen.size === 0) {
    chosen.add(DEFAULT_REPORTER);
    if (context.env.GITHUB_ACTIONS === 'true') chosen.add('github');
  }
  // Known once every reporter is made; forPeople is only called after that (on events and at the end).
  const stdout: { owner?: Reporter } = {};
  const reporterContext: ReporterContext = {
    ...context,
    forPeople: (text) => (stdout.owner === undefined ? context.output.out(text) : context.output.err(text)),
  };
  const reporters = REPORTER_NAMES.filter((name) => chosen.has(name)).map((name) => REPORTERS[name](reporterContext));
  const documents = reporters.filter((reporter) => reporter.ownsStdout);
  if (documents.length > 1) {
    throw new ConfigError(`--reporter ${documents.map((reporter) => reporter.name).join(' and ')}: each prints a document on stdout, choose one (the files are in the report folder anyway)`);
  }
  if (documents[0] !== undefined) stdout.owner = documents[0];
  return { reporters, ...(stdout.owner !== undefined ? { document: stdout.owner } : {}) };
}
