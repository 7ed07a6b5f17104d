import type { ConfigIssue } from '@parley/core';
import type { LoadedSuite } from '@parley/config';
import type { JudgeMetric } from './judge-metric.js';

/**
 * Judge metrics need a judge: a suite whose scenarios (or defaults, or agents) expect one without
 * `judge.primary` in parley.yaml is a configuration error now, not an `error` result per scenario
 * at the end of a run that cost money. So is a cross-check without a primary judge to compare with.
 */
export function judgeSetupIssues(suite: LoadedSuite, catalog: ReadonlyMap<string, JudgeMetric>): ConfigIssue[] {
  if (suite.config.judge?.primary !== undefined) return [];
  const issues: ConfigIssue[] = [];
  if (suite.config.judge?.cross_check !== undefined) {
    issues.push({ file: suite.file, message: 'judge.cross_check needs judge.primary: the cross-check re-judges what the primary judge judged', severity: 'error' });
  }
  const users = new Map<string, string[]>();
  for (const scenario of suite.scenarios) {
    for (const expectation of scenario.expectations) {
      if (!catalog.has(expectation.metric)) continue;
      const ids = users.get(expectation.metric) ?? [];
      if (!ids.includes(scenario.data.id)) ids.push(scenario.data.id);
      users.set(expectation.metric, ids);
    }
  }
  for (const [metric, ids] of [...users.entries()].sort(([left], [right]) => (left < right ? -1 : 1))) {
    const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '');
    issues.push({
      file: suite.file,
      message: `${metric} is judged by an LLM, and parley.yaml has no judge: add judge: { primary: { provider: …, model: … } } (used by ${shown})`,
      severity: 'error',
    });
  }
  return issues;
}
