import * as z from 'zod';

/** Semantic version `MAJOR.MINOR.PATCH`, with optional pre-release and build parts (semver.org). */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** Metric names are file stems and appear in reports and baselines: keep them simple. */
export const METRIC_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;

/** `fluency_<lang>`: the metric attached automatically to scenarios in that language. */
export const FLUENCY_METRIC_PATTERN = /^fluency_([a-z]{2,3})$/;

/**
 * The range the judge scores on, written as a mapping: `scale: { min: 1, max: 5 }` or
 * `scale: { min: 0, max: 100 }`. Scores are normalised to [0, 1] as (score - min) / (max - min).
 * One form only (not also the string "1-5"), so a scale reads the same in every metric file.
 */
const RubricScaleSchema = z
  .strictObject(
    { min: z.number(), max: z.number() },
    {
      error: (issue) =>
        issue.code === 'invalid_type' ? 'write the scale as a mapping such as { min: 1, max: 5 }' : undefined,
    },
  )
  .refine((scale) => scale.min < scale.max, { message: "the scale's max must be greater than its min", path: ['max'] });

const RubricCriterionSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9_-]+$/, 'criterion ids use lowercase letters, digits, _ and -'),
  text: z.string().min(1),
  /** A failed `required` criterion fails the metric whatever the score; `recommended` ones only lower it. */
  level: z.enum(['required', 'recommended']),
});
export type RubricCriterion = z.infer<typeof RubricCriterionSchema>;

/** A custom LLM-judged rubric metric: `metrics/<name>.yaml` (docs/file-formats.md, "Custom rubric metric"). */
export const RubricMetricSchema = z
  .strictObject({
    /** `rubric` (the default) or, for metrics written in code, `module` / `command` (code-metric-schema.ts). */
    kind: z.literal('rubric').optional(),
    name: z.string().regex(METRIC_NAME_PATTERN, 'metric names use lowercase letters, digits and _, starting with a letter'),
    /** Bump it whenever the rubric changes: cached judge verdicts and baselines are keyed by it. */
    version: z.string().regex(SEMVER_PATTERN, 'use a semantic version such as 1.0.0'),
    scale: RubricScaleSchema,
    language: z.string().regex(/^[a-z]{2,3}$/, 'use an ISO 639 language code such as en, sw or zu').optional(),
    rubric: z.string().trim().min(1),
    applies_to: z.enum(['conversation', 'each_assistant_message']),
    criteria: z.array(RubricCriterionSchema).default([]),
    /**
     * A built-in `fluency_<language>` this metric judges instead: scenarios in that language get
     * this one attached (a team's own rubric, e.g. South African English, under its own name).
     */
    replaces: z.string().regex(FLUENCY_METRIC_PATTERN, 'only a fluency_<language> metric can be replaced, e.g. replaces: fluency_en').optional(),
  })
  .superRefine((metric, context) => {
    const fluencyLanguage = FLUENCY_METRIC_PATTERN.exec(metric.name)?.[1];
    if (fluencyLanguage !== undefined && metric.language !== undefined && metric.language !== fluencyLanguage) {
      context.addIssue({
        code: 'custom',
        path: ['language'],
        message: `a metric named ${metric.name} judges language "${fluencyLanguage}", not "${metric.language}"`,
      });
    }
    if (metric.replaces !== undefined && metric.replaces === metric.name) {
      context.addIssue({ code: 'custom', path: ['replaces'], message: `a metric cannot replace itself; give your rubric its own name, e.g. ${metric.name}_local` });
    }
    const seen = new Set<string>();
    metric.criteria.forEach((criterion, index) => {
      if (seen.has(criterion.id)) {
        context.addIssue({ code: 'custom', path: ['criteria', index, 'id'], message: `duplicate criterion id "${criterion.id}"` });
      }
      seen.add(criterion.id);
    });
  });
export type RubricMetricFile = z.infer<typeof RubricMetricSchema>;
