import { fluencyMetricFor, fluencyReplacements, type Expectation, type LoadedRubricMetric } from '@parley/config';
import type { z } from 'zod';
import { conversationJudgeMetric } from './conversation-judge.js';
import type { JudgeMetric } from './judge-metric.js';
import { rubricMetric } from './rubric-metric.js';
import { fluencyEnRubric } from './rubrics/fluency-en.js';
import { fluencyAfRubric } from './rubrics/fluency-af.js';
import { fluencySwRubric } from './rubrics/fluency-sw.js';
import { fluencyZuRubric } from './rubrics/fluency-zu.js';
import { mpesaPaymentSafetyRubric } from './rubrics/mpesa-payment-safety.js';

/**
 * The judge metrics Parley ships: `conversation_judge`, one fluency rubric per language its users
 * speak (English, Swahili, isiZulu, Afrikaans), and `mpesa_payment_safety`.
 */
export const builtInJudgeMetrics: ReadonlyArray<JudgeMetric> = [
  conversationJudgeMetric as JudgeMetric,
  rubricMetric(fluencyEnRubric) as JudgeMetric,
  rubricMetric(fluencySwRubric) as JudgeMetric,
  rubricMetric(fluencyZuRubric) as JudgeMetric,
  rubricMetric(fluencyAfRubric) as JudgeMetric,
  rubricMetric(mpesaPaymentSafetyRubric) as JudgeMetric,
];

/** Parameter schemas of the built-in judge metrics, for the suite loader (unknown keys are errors). */
export function judgeMetricParamSchemas(): Record<string, z.ZodType> {
  return Object.fromEntries(builtInJudgeMetrics.map((metric) => [metric.name, metric.params as z.ZodType]));
}

/** name → version of the built-in judge metrics (config fingerprints, reports). */
export function judgeMetricVersions(): Record<string, string> {
  return Object.fromEntries(builtInJudgeMetrics.map((metric) => [metric.name, metric.version]));
}

/**
 * Every judge metric a suite can use: the built-ins and the suite's rubric metrics, by name. The
 * map has no prototype, so a metric named `constructor` finds nothing.
 */
export function judgeMetricCatalog(customMetrics: readonly LoadedRubricMetric[]): ReadonlyMap<string, JudgeMetric> {
  const catalog = new Map<string, JudgeMetric>(builtInJudgeMetrics.map((metric) => [metric.name, metric]));
  for (const custom of customMetrics) catalog.set(custom.data.name, rubricMetric(custom.data) as JudgeMetric);
  return catalog;
}

/**
 * The expectations a scenario is evaluated by: its own (suite defaults, agent's, scenario's), then
 * the fluency metric of the scenario's language when the suite has one (a suite metric that
 * `replaces` fluency_<language>, else fluency_<language> built in or in metrics/) and nothing names
 * it already (docs/file-formats.md, "Judge metrics": test authors need not remember which fluency
 * metric a language takes). Only when the suite has a judge: without one
 * no judge metric can run, and a suite that names none must keep working.
 */
export function expectationsWithFluency(
  expectations: readonly Expectation[],
  language: string | undefined,
  catalog: ReadonlyMap<string, JudgeMetric>,
  judgeConfigured: boolean,
): Expectation[] {
  if (!judgeConfigured || language === undefined) return [...expectations];
  const replacements = fluencyReplacements(catalog.values());
  const fluency = fluencyMetricFor(language, (name) => catalog.has(name), replacements);
  if (fluency === undefined) return [...expectations];
  if (expectations.some((expectation) => expectation.metric === fluency)) return [...expectations];
  return [...expectations, { metric: fluency }];
}
