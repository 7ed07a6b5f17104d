import * as z from 'zod';

export const GateSchema = z.enum(['blocking', 'advisory']);

export const ThresholdingSchema = z.strictObject({
  mode: z.enum(['relative', 'absolute']).optional(),
  max_drop: z.number().min(0).max(1).optional(),
  min_floor: z.number().min(0).max(1).optional(),
});
export type Thresholding = z.infer<typeof ThresholdingSchema>;

/**
 * One expectation of a scenario: a metric name plus its parameters. The keys shared by every
 * metric are checked here; each metric checks its own parameters against its own schema
 * (see `checkExpectations` in expectation-params.ts), so a typo in a parameter is still reported
 * with its file, line and column.
 */
export const ExpectationSchema = z
  .object({
    metric: z.string().min(1),
    threshold: z.number().min(0).max(1).optional(),
    gate: GateSchema.optional(),
    thresholding: ThresholdingSchema.optional(),
  })
  .catchall(z.unknown());
export type Expectation = z.infer<typeof ExpectationSchema>;

/** The keys every expectation may carry besides its metric's own parameters. */
export const COMMON_EXPECTATION_KEYS = ['metric', 'threshold', 'gate', 'thresholding'] as const;
