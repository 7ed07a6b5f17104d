import { ConfigError, isConfigError, type ConfigIssue, displayPath } from '@parley/core';
import { EXIT_CONFIG_ERROR } from '@parley/gate';
import type { Command } from 'commander';
import type { CommandContext, ProgramContext } from '../program/command-context.js';
import { formatOption } from '../program/flags.js';
import { printIssues } from '../output/config-error-output.js';
import { counted, paint } from '../output/output.js';

interface ValidateFlags {
  format?: string;
  /** Warnings are errors (exit 2), as they fail a `parley run --strict`. */
  strict?: boolean;
}

export function register(program: Command, context: ProgramContext): void {
  program
    .command('validate')
    .description('check a suite without running it (exit 2 with file:line:column on problems)')
    .argument('[suite]', 'suite folder or parley.yaml', '.')
    .addOption(formatOption())
    .option('--strict', 'treat warnings as errors (exit 2), as `parley run --strict` does')
    .action(async (suite: string, flags: ValidateFlags) => context.setExitCode(await validateCommand(suite, flags, context)));
}

/** `parley validate [suite]`: loads and checks everything a run would, without running anything. */
async function validateCommand(suiteArgument: string | undefined, flags: ValidateFlags, context: CommandContext): Promise<number> {
  const json = flags.format === 'json';
  // JSON owns stdout: problems go into it, not into annotations beside it.
  if (json) context.githubAnnotations = false;
  const { loadSuiteForRun } = await import('@parley/runner');
  const { missingEnvironmentIssues } = await import('@parley/config');
  const { resolve } = await import('node:path');
  const issuesOf = (issues: readonly ConfigIssue[]) => issues.map((issue) => ({ ...issue, file: displayPath(issue.file, context.cwd) }));
  let suite;
  try {
    suite = loadSuiteForRun(resolve(context.cwd, suiteArgument ?? '.'));
    // The redactor a run would build: reads the identities file (a line that is not a name is an error).
    const { suiteRedactor } = await import('@parley/redaction');
    suiteRedactor(suite);
    // `${AGENT_URL}` in an agent's url with AGENT_URL unset: no run could talk to that agent.
    const missing = missingEnvironmentIssues(suite, context.env);
    if (missing.length > 0) throw new ConfigError(missing);
  } catch (error) {
    if (json && isConfigError(error)) context.output.out(`${JSON.stringify({ valid: false, problems: issuesOf(error.issues) }, null, 2)}\n`);
    throw error;
  }
  if (flags.strict && suite.warnings.length > 0) {
    if (json) context.output.out(`${JSON.stringify({ valid: false, problems: issuesOf(suite.warnings.map((warning) => ({ ...warning, severity: 'error' as const }))) }, null, 2)}\n`);
    printIssues(context.output, suite.warnings.map((warning) => ({ ...warning, severity: 'error' as const })), context.cwd);
    return EXIT_CONFIG_ERROR;
  }
  const agents = Object.keys(suite.config.agents).length;
  const metrics = new Set(suite.scenarios.flatMap((scenario) => scenario.expectations.map((expectation) => expectation.metric)));
  // A scenario with vars:/cases: is one scenario of several cases (its variants).
  const scenarios = new Set(suite.scenarios.map((scenario) => scenario.variant?.scenario ?? scenario.data.id)).size;
  const cases = suite.scenarios.length;
  const counts = `${counted(scenarios, 'scenario')}${cases !== scenarios ? ` (${counted(cases, 'case')})` : ''}`;
  if (json) {
    const facts = { valid: true, suite: suite.config.suite, scenarios, ...(cases !== scenarios ? { cases } : {}), agents, metrics: [...metrics].sort(), warnings: issuesOf(suite.warnings) };
    context.output.out(`${JSON.stringify(facts, null, 2)}\n`);
    return 0;
  }
  printIssues(context.output, suite.warnings, context.cwd);
  const colors = paint(context.output.color);
  context.output.out(
    `${colors.status('pass', 'valid')}: suite ${suite.config.suite} · ${counts} · ${counted(agents, 'agent')} · ${counted(metrics.size, 'metric')}${suite.warnings.length ? ` · ${counted(suite.warnings.length, 'warning')}` : ''}\n`,
  );
  return 0;
}
