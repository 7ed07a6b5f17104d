import * as z from 'zod';

export const BASELINE_SCHEMA_VERSION = 1;

const BaselineEntrySchema = z.looseObject({
  test_id: z.string().min(1),
  metric: z.string().min(1),
  score: z.number().min(0).max(1),
  meta: z
    .looseObject({
      metric_version: z.string().optional(),
      judge_model: z.string().optional(),
    })
    .optional(),
});
export type BaselineEntry = z.infer<typeof BaselineEntrySchema>;

/**
 * A baseline file (docs/file-formats.md, "Baseline and calibration files"): the scores of a
 * known-good run. Unknown keys are kept (loose objects) so a newer Parley can add fields without
 * older ones refusing the file; the `schema_version` is what must match.
 */
export const BaselineSchema = z
  .looseObject({
    schema_version: z.literal(BASELINE_SCHEMA_VERSION),
    suite: z.string().min(1),
    parley_version: z.string().min(1),
    created_at: z.string().min(1),
    /** `sha256:<hex>` of the suite configuration (see configFingerprint). */
    config_fingerprint: z.string().startsWith('sha256:'),
    /** One entry per scenario and metric, only for metrics with numeric scores. */
    entries: z.array(BaselineEntrySchema),
  })
  .superRefine((baseline, context) => {
    const seen = new Set<string>();
    baseline.entries.forEach((entry, index) => {
      const key = `${entry.test_id}\u0000${entry.metric}`;
      if (seen.has(key)) {
        context.addIssue({
          code: 'custom',
          path: ['entries', index],
          message: `a second entry for scenario "${entry.test_id}" and metric "${entry.metric}"`,
        });
      }
      seen.add(key);
    });
  });
export type BaselineFile = z.infer<typeof BaselineSchema>;
