import type { MonitorStore } from '@parley/store';
import type { MonitorInput } from './monitor-outcome.js';
import { metricFloor, monitoredExpectations } from './monitored-expectations.js';
import type { MonitorPlan, MonitorSetup } from './plan-monitoring.js';
import { compareWindows, DEFAULT_WINDOW_COMPARISON, type MetricWindowComparison } from './window-comparison.js';

/**
 * The alert phase: each monitored metric's scores in the window (`--since`, ending when the run
 * started) against the previous windows, with an alert below the metric's floor or on a
 * significant drop (see window-comparison.ts). The metrics are those judged now and those the
 * suite monitors by default.
 */
export function alertWindows(input: MonitorInput, setup: MonitorSetup, plan: MonitorPlan, store: MonitorStore): { windows: MetricWindowComparison[]; alerts: string[] } {
  const { suite } = input;
  const { catalog, now } = setup;
  const floors = new Map<string, number | null>();
  for (const item of plan.planned) for (const expectation of item.expectations) floors.set(expectation.metric, metricFloor(expectation, suite, catalog.get(expectation.metric)));
  for (const expectation of monitoredExpectations({ suite, agent: setup.agent, catalog, extraMetrics: input.metrics ?? [], language: undefined })) {
    if (!floors.has(expectation.metric)) floors.set(expectation.metric, metricFloor(expectation, suite, catalog.get(expectation.metric)));
  }
  const windowStart = new Date(now.getTime() - input.windowMs);
  const previousStart = new Date(windowStart.getTime() - input.windowMs * input.previousWindows);
  const end = new Date(now.getTime() + 1);
  const current = store.scoresBetween(setup.suiteName, windowStart.toISOString(), end.toISOString());
  // A metric judged in an earlier run of the window (a language's fluency, a --metric of that run)
  // keeps its floor while its scores are in the window, so an alert holds until the window
  // recovers, not only in the run that judged it: the suite's settings, else the threshold it was
  // judged with, else the metric's default.
  for (const score of current) {
    if (!floors.has(score.metric)) floors.set(score.metric, metricFloor({ metric: score.metric, ...(score.threshold !== null ? { threshold: score.threshold } : {}) }, suite, catalog.get(score.metric)));
  }
  const windows = compareWindows(current, store.scoresBetween(setup.suiteName, previousStart.toISOString(), windowStart.toISOString()), floors, input.comparison ?? DEFAULT_WINDOW_COMPARISON);
  return { windows, alerts: windows.flatMap((window) => window.alerts) };
}
