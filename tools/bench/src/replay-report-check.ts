import { readFileSync } from 'node:fs';

/**
 * Throws unless the report at `reportPath` is a replay run in which every expected scenario
 * passed. A benchmark that timed replay misses would time error handling, not replay: the
 * synthetic suite promises a pass everywhere, and a miss means the generator no longer builds
 * requests the way the engine does.
 */
export function assertEveryScenarioPassed(reportPath: string, expectedIds: readonly string[]): void {
  let report: unknown;
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8'));
  } catch (error) {
    throw new Error(`benchmark run wrote no readable report at ${reportPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(report)) throw new Error(`report ${reportPath} is not a JSON object`);
  if (report.mode !== 'replay') throw new Error(`benchmark run was not a replay run (mode ${JSON.stringify(report.mode)}) in ${reportPath}`);
  const results = Array.isArray(report.results) ? report.results.filter(isRecord) : [];
  const seen = new Set(results.map((result) => result.scenario_id));
  const missing = expectedIds.filter((id) => !seen.has(id));
  if (missing.length > 0 || results.length !== expectedIds.length) {
    throw new Error(`report ${reportPath} has ${results.length} results for ${expectedIds.length} scenarios (missing: ${missing.slice(0, 5).join(', ') || 'none'})`);
  }
  const failing = results.filter((result) => result.status !== 'pass');
  const first = failing[0];
  if (first !== undefined) {
    const details = isRecord(first.error) && typeof first.error.details === 'string' ? `\n${first.error.details}` : '';
    throw new Error(
      `${failing.length} of ${results.length} synthetic scenarios did not pass, so the generator no longer matches the engine ` +
        `(tools/bench/src/synthetic-suite.ts). First: ${String(first.scenario_id)} ${String(first.status)}: ${String(first.reason)}${details}`,
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
