import { FLUENCY_METRIC_PATTERN } from './rubric-metric-schema.js';

/**
 * The fluency metric that judges a scenario written in `language`: a suite metric declaring
 * `replaces: fluency_<language>` (a team's own rubric, e.g. South African English, under its own
 * name), else `fluency_<language>` itself when the suite knows it (built in or in metrics/), else
 * undefined: then nothing judges the language, which validate and run warn about.
 *
 * @param replacements replaced metric name → the suite metric that replaces it
 * @example fluencyMetricFor('en', (name) => name === 'fluency_en', new Map([['fluency_en', 'fluency_en_za']])) // 'fluency_en_za'
 */
export function fluencyMetricFor(
  language: string | undefined,
  isKnown: (name: string) => boolean,
  replacements: ReadonlyMap<string, string>,
): string | undefined {
  if (language === undefined) return undefined;
  const fluency = `fluency_${language}`;
  if (!FLUENCY_METRIC_PATTERN.test(fluency)) return undefined;
  return replacements.get(fluency) ?? (isKnown(fluency) ? fluency : undefined);
}

/**
 * `fluency_<language>` → the metric that replaces it, from metrics that may declare `replaces`
 * (rubric files, judge metrics). The loader refuses two replacing the same name, so the first wins.
 */
export function fluencyReplacements(metrics: Iterable<{ name: string; replaces?: string | undefined }>): Map<string, string> {
  const replacements = new Map<string, string>();
  for (const metric of metrics) if (metric.replaces !== undefined && !replacements.has(metric.replaces)) replacements.set(metric.replaces, metric.name);
  return replacements;
}
