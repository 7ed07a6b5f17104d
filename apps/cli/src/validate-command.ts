import type { CommandContext } from './command-context.js';
import { printIssues } from './config-error-output.js';
import { counted, paint } from './output.js';

export interface ValidateFlags {
  /** Warnings are errors (exit 2), as they fail a `parley run --strict`. */
  strict?: boolean;
}

/** `parley validate [suite]`: loads and checks everything a run would, without running anything. */
export async function validateCommand(suiteArgument: string | undefined, flags: ValidateFlags, context: CommandContext): Promise<number> {
  const { loadSuiteForRun } = await import('@parley/runner');
  const { resolve } = await import('node:path');
  const suite = loadSuiteForRun(resolve(context.cwd, suiteArgument ?? '.'));
  // The redactor a run would build: reads the identities file (a line that is not a name is an error).
  const { suiteRedactor } = await import('@parley/redaction');
  suiteRedactor(suite);
  if (flags.strict && suite.warnings.length > 0) {
    printIssues(context.output, suite.warnings.map((warning) => ({ ...warning, severity: 'error' as const })), context.cwd);
    return 2;
  }
  printIssues(context.output, suite.warnings, context.cwd);
  const colors = paint(context.output.color);
  const agents = Object.keys(suite.config.agents).length;
  const metrics = new Set(suite.scenarios.flatMap((scenario) => scenario.expectations.map((expectation) => expectation.metric)));
  context.output.out(
    `${colors.status('pass', 'valid')}: suite ${suite.config.suite} · ${counted(suite.scenarios.length, 'scenario')} · ${counted(agents, 'agent')} · ${counted(metrics.size, 'metric')}${suite.warnings.length ? ` · ${counted(suite.warnings.length, 'warning')}` : ''}\n`,
  );
  return 0;
}
