import type { expectationLocator } from '@parley/config';
import type { ReportResult } from '@parley/reports';
import type { RunOutcome } from '@parley/runner';
import { renderGithubAnnotations, type LocateExpectation } from './github-annotations.js';
import type { Reporter, ReporterContext } from './reporter.js';

/** `github`: workflow commands that GitHub Actions shows as annotations on the PR's files. */
export function githubReporter(context: ReporterContext): Reporter {
  return {
    name: 'github',
    ownsStdout: false,
    showsWarnings: true,
    async onRunEnd(outcome) {
      const workspace = context.env.GITHUB_WORKSPACE;
      // Loaded when used: the suite's schemas and YAML parser are not for every command's start-up.
      const { expectationLocator } = await import('@parley/config');
      context.forPeople(renderGithubAnnotations(outcome.report, expectationPlaces(outcome, expectationLocator()), { cwd: context.cwd, ...(workspace ? { workspace } : {}) }));
    },
  };
}

/** Finds a failing expectation in the suite's files, parsing only the files of failing scenarios. */
function expectationPlaces(outcome: RunOutcome, locate: ReturnType<typeof expectationLocator>): LocateExpectation {
  const files = new Map(outcome.suite.scenarios.map((scenario) => [scenario.data.id, scenario.file]));
  return (result: ReportResult, metricIndex: number | undefined) => {
    const scenarioFile = files.get(result.scenario_id);
    if (scenarioFile === undefined) return undefined;
    const query = { scenarioFile, suiteFile: outcome.suite.file, agent: result.agent, metrics: result.metrics.map((metric) => metric.metric) };
    return locate({ ...query, index: metricIndex ?? -1 });
  };
}
