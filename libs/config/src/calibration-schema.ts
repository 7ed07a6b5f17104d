import * as z from 'zod';

export const CALIBRATION_SCHEMA_VERSION = 1;

/** Human and judge ratings use the full 1–5 scale; anything else is an error, never dropped. */
const RatingValueSchema = z.number().int().min(1).max(5);

const CalibrationMessageSchema = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
});
export type CalibrationMessage = z.infer<typeof CalibrationMessageSchema>;

/** The keys of a rating besides the axis scores. */
const RATING_META_KEYS = ['reviewer', 'rated_at', 'rubric_version', 'note'] as const;

/**
 * One reviewer's rating of one item: who, when, under which rubric, and a 1–5 score per axis
 * (the axis names are the set's `axes`, written as keys). An axis may be missing: a session can
 * stop between two keys, and agreement statistics allow missing ratings.
 */
export const CalibrationRatingSchema = z
  .object({
    reviewer: z.string().min(1),
    rated_at: z.iso.datetime({ offset: true }),
    rubric_version: z.string().min(1),
    note: z.string().optional(),
  })
  .catchall(RatingValueSchema);
export type CalibrationRating = z.infer<typeof CalibrationRatingSchema>;

const CalibrationItemSchema = z.strictObject({
  id: z.string().min(1),
  added: z.iso.date(),
  source: z
    .string()
    // A stored run's case: a scenario id, a variant's (`greet[lang=zu]`), either against another agent (`…@v2`).
    .regex(/^(?:production|synthetic|scenario:[a-z0-9_-]+(?:\[[A-Za-z0-9_.+=,-]+\])?(?:@[A-Za-z0-9_-]+)?)$/, 'source is production, synthetic or scenario:<scenario id>'),
  language: z.string().regex(/^[a-z]{2,3}$/, 'use an ISO 639 language code such as en, sw or zu'),
  vertical: z.string().optional(),
  /** Already masked (docs/privacy.md). */
  transcript: z.array(CalibrationMessageSchema).min(1),
  /** Empty for an imported item nobody has rated yet. */
  ratings: z.array(CalibrationRatingSchema).default([]),
});
export type CalibrationItem = z.infer<typeof CalibrationItemSchema>;

/** `calibration/human_labelled.yaml` (docs/file-formats.md, "Baseline and calibration files"). */
export const CalibrationSetSchema = z
  .strictObject({
    schema_version: z.literal(CALIBRATION_SCHEMA_VERSION),
    rubric_version: z.string().min(1),
    /** Who runs the monthly session. */
    owner: z.string().min(1),
    axes: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/, 'axis names use lowercase letters, digits and _')).min(1),
    items: z.array(CalibrationItemSchema).default([]),
  })
  .superRefine((set, context) => {
    const axes = new Set(set.axes);
    const metaKeys: readonly string[] = RATING_META_KEYS;
    set.axes.forEach((axis, index) => {
      if (set.axes.indexOf(axis) !== index) context.addIssue({ code: 'custom', path: ['axes', index], message: `axis "${axis}" is listed twice` });
      if (metaKeys.includes(axis)) context.addIssue({ code: 'custom', path: ['axes', index], message: `"${axis}" cannot be an axis name` });
    });
    const itemIds = new Set<string>();
    set.items.forEach((item, itemIndex) => {
      if (itemIds.has(item.id)) context.addIssue({ code: 'custom', path: ['items', itemIndex, 'id'], message: `duplicate item id "${item.id}"` });
      itemIds.add(item.id);
      item.ratings.forEach((rating, ratingIndex) => {
        for (const key of Object.keys(rating)) {
          if (metaKeys.includes(key) || axes.has(key)) continue;
          context.addIssue({
            code: 'custom',
            path: ['items', itemIndex, 'ratings', ratingIndex, key],
            message: `"${key}" is not an axis of this set (axes: ${set.axes.join(', ')})`,
          });
        }
      });
    });
  });
export type CalibrationSet = z.infer<typeof CalibrationSetSchema>;
