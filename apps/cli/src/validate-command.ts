import type { CommandContext } from './command-context.js';
import { printIssues } from './config-error-output.js';
import { paint } from './output.js';

/** `parley validate [suite]`: loads and checks everything a run would, without running anything. */
export async function validateCommand(suiteArgument: string | undefined, context: CommandContext): Promise<number> {
  const { loadSuiteForRun } = await import('@parley/runner');
  const { resolve } = await import('node:path');
  const suite = loadSuiteForRun(resolve(context.cwd, suiteArgument ?? '.'));
  // The redactor a run would build: reads the identities file (a line that is not a name is an error).
  const { suiteRedactor } = await import('@parley/redaction');
  suiteRedactor(suite);
  printIssues(context.output, suite.warnings, context.cwd);
  const colors = paint(context.output.color);
  const agents = Object.keys(suite.config.agents).length;
  const metrics = new Set(suite.scenarios.flatMap((scenario) => scenario.expectations.map((expectation) => expectation.metric)));
  context.output.out(
    `${colors.status('pass', 'valid')}: suite ${suite.config.suite} · ${suite.scenarios.length} scenarios · ${agents} agents · ${metrics.size} metrics${suite.warnings.length ? ` · ${suite.warnings.length} warnings` : ''}\n`,
  );
  return 0;
}
