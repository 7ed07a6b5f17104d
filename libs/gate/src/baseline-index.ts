import type { BaselineEntry, BaselineFile } from '@parley/config';

/** A baseline's entries by scenario and metric key, for lookups during a run. */
export interface BaselineIndex {
  entry(scenarioId: string, metricKey: string): BaselineEntry | undefined;
  readonly size: number;
}

/** Indexes a validated baseline (the schema already refuses two entries for one scenario and metric). */
export function indexBaseline(baseline: Pick<BaselineFile, 'entries'>): BaselineIndex {
  const entries = new Map<string, BaselineEntry>();
  for (const entry of baseline.entries) entries.set(entryKey(entry.test_id, entry.metric), entry);
  return {
    entry: (scenarioId, metricKey) => entries.get(entryKey(scenarioId, metricKey)),
    size: entries.size,
  };
}

function entryKey(scenarioId: string, metricKey: string): string {
  return `${scenarioId}\u0000${metricKey}`;
}
