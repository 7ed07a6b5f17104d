import { resolve } from 'node:path';
import { missingEnvironmentIssues } from '@parley/config';
import { ConfigError, isConfigError, type ConfigIssue, displayPath } from '@parley/core';
import { EXIT_CONFIG_ERROR } from '@parley/gate';
import { suiteRedactor } from '@parley/redaction';
import { defaultMode, loadSuiteForRun, recordingIssues } from '@parley/runner';
import type { CommandContext } from '../program/command-context.js';
import { printIssues } from '../output/config-error-output.js';
import { counted, paint } from '../output/output.js';
import type { ValidateFlags } from './validate.js';

/** `parley validate [suite]`: loads and checks everything a run would, without running anything. */
export function validateCommand(suiteArgument: string | undefined, flags: ValidateFlags, context: CommandContext): number {
  const json = flags.format === 'json';
  // JSON owns stdout: problems go into it, not into annotations beside it.
  if (json) context.githubAnnotations = false;
  const issuesOf = (issues: readonly ConfigIssue[]) => issues.map((issue) => ({ ...issue, file: displayPath(issue.file, context.cwd) }));
  const given = resolve(context.cwd, suiteArgument ?? '.');
  let suite;
  let missingForRecording: ConfigIssue[] = [];
  try {
    suite = loadSuiteForRun(given, {}, { scenarioFile: true });
    // The redactor a run would build: reads the identities file (a line that is not a name is an error).
    suiteRedactor(suite);
    // `${AGENT_URL}` in an agent's url with AGENT_URL unset: no live or record run could talk to
    // that agent. A suite with recordings replays by default and never calls it, so there the
    // variable is only needed to record: a warning, as `parley run` starts without it.
    const replaying = defaultMode(suite) === 'replay';
    const missing = missingEnvironmentIssues(suite, context.env);
    if (replaying) missingForRecording = missing.map((issue) => ({ ...issue, message: `${issue.message} (needed to record or run live; a replay does not call the agent)`, severity: 'warning' as const }));
    // A damaged recording passes the suite's checks but stops its replay: read them as a replay does.
    const problems = [...(replaying ? [] : missing), ...recordingIssues(suite)];
    if (problems.length > 0) throw new ConfigError(problems);
  } catch (error) {
    if (json && isConfigError(error)) context.output.out(`${JSON.stringify({ valid: false, problems: issuesOf(error.issues) }, null, 2)}\n`);
    throw error;
  }
  if (flags.strict && suite.warnings.length > 0) {
    if (json) context.output.out(`${JSON.stringify({ valid: false, problems: issuesOf(suite.warnings.map((warning) => ({ ...warning, severity: 'error' as const }))) }, null, 2)}\n`);
    printIssues(context.output, suite.warnings.map((warning) => ({ ...warning, severity: 'error' as const })), context.cwd);
    return EXIT_CONFIG_ERROR;
  }
  // Shown with the suite's warnings, but not made errors by --strict: `parley run --strict` replays without them.
  const warnings = [...suite.warnings, ...missingForRecording];
  const agents = Object.keys(suite.config.agents).length;
  const metrics = new Set(suite.scenarios.flatMap((scenario) => scenario.expectations.map((expectation) => expectation.metric)));
  // A scenario with vars:/cases: is one scenario of several cases (its variants).
  const scenarios = new Set(suite.scenarios.map((scenario) => scenario.variant?.scenario ?? scenario.data.id)).size;
  const cases = suite.scenarios.length;
  // `parley validate scenarios/x.yaml`: that file alone, checked in its suite.
  const onlyFile = suite.scenarios.length > 0 && suite.scenarios.every((scenario) => scenario.file === given) ? displayPath(given, context.cwd) : undefined;
  const counts = `${counted(scenarios, 'scenario')}${cases !== scenarios ? ` (${counted(cases, 'case')})` : ''}${onlyFile !== undefined ? ` (${onlyFile} alone)` : ''}`;
  if (json) {
    const facts = { valid: true, suite: suite.config.suite, scenarios, ...(cases !== scenarios ? { cases } : {}), agents, metrics: [...metrics].sort(), warnings: issuesOf(warnings) };
    context.output.out(`${JSON.stringify(facts, null, 2)}\n`);
    return 0;
  }
  printIssues(context.output, warnings, context.cwd);
  const colors = paint(context.output.color);
  context.output.out(
    `${colors.status('pass', 'valid')}: suite ${suite.config.suite} · ${counts} · ${counted(agents, 'agent')} · ${counted(metrics.size, 'metric')}${warnings.length ? ` · ${counted(warnings.length, 'warning')}` : ''}\n`,
  );
  return 0;
}
