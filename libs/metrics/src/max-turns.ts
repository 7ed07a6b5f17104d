import * as z from 'zod';
import { defineMetric } from './define-metric.js';
import type { Metric, MetricIdentity } from './metric.js';
import { verdictResult } from './metric-result.js';
import { countOf } from './reason-list.js';

const MaxTurnsParamsSchema = z.strictObject({ max: z.number().int().positive() });
export type MaxTurnsParams = z.infer<typeof MaxTurnsParamsSchema>;

const IDENTITY: MetricIdentity = { name: 'max_turns', version: '1.0.0' };

/** `max_turns`: the conversation reached its end within `max` user turns (user messages). */
export const maxTurnsMetric: Metric<MaxTurnsParams> = defineMetric({
  ...IDENTITY,
  kind: 'deterministic',
  params: MaxTurnsParamsSchema,
  defaultThreshold: null,
  evaluate(input, params) {
    const count = input.transcript.turns.filter((message) => message.role === 'user').length;
    const passed = count <= params.max;
    const reason = passed ? `${countOf(count, 'user turn')} ≤ max ${params.max}` : `${countOf(count, 'user turn')} > max ${params.max}`;
    return verdictResult(IDENTITY, passed, reason, { count, max: params.max });
  },
});
