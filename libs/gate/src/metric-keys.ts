/**
 * The key of each metric of a result, as baselines and `compare` name them: the metric's name,
 * and `name#2`, `name#3` … for its second and later occurrences in the same scenario (a scenario
 * may check `tool_correctness` twice, e.g. once per phase). Keys depend only on the order of the
 * scenario's expectations, which the loader keeps, so the same scenario gives the same keys in
 * every run.
 *
 * @example metricKeys([{ metric: 'a' }, { metric: 'b' }, { metric: 'a' }]) // ['a', 'b', 'a#2']
 */
export function metricKeys(metrics: ReadonlyArray<{ metric: string }>): string[] {
  const seen = new Map<string, number>();
  return metrics.map(({ metric }) => {
    const occurrence = (seen.get(metric) ?? 0) + 1;
    seen.set(metric, occurrence);
    return occurrence === 1 ? metric : `${metric}#${occurrence}`;
  });
}
