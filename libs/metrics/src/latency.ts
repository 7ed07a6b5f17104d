import * as z from 'zod';
import { defineMetric } from './define-metric.js';
import type { Metric, MetricIdentity } from './metric.js';
import { verdictResult } from './metric-result.js';
import { countOf } from './reason-list.js';

const LatencyParamsSchema = z
  .strictObject({ p95_ms: z.number().positive().optional(), max_ms: z.number().positive().optional() })
  .refine((params) => params.p95_ms !== undefined || params.max_ms !== undefined, {
    message: 'latency needs p95_ms, max_ms or both',
  });
export type LatencyParams = z.infer<typeof LatencyParamsSchema>;

const IDENTITY: MetricIdentity = { name: 'latency', version: '1.0.0' };

/**
 * `latency`: the p95 (nearest rank) and/or the maximum of the assistant messages' latencies stay
 * within limits. Messages without a latency are left out; with none at all there is nothing to
 * hold against the limits, which passes and says so.
 */
export const latencyMetric: Metric<LatencyParams> = defineMetric({
  ...IDENTITY,
  kind: 'deterministic',
  params: LatencyParamsSchema,
  defaultThreshold: null,
  evaluate(input, params) {
    const timed = input.transcript.turns.flatMap((message, index) =>
      message.role === 'assistant' && message.latency_ms !== undefined ? [{ latency: message.latency_ms, index, turn: message.turn }] : [],
    );
    if (timed.length === 0) {
      return verdictResult(IDENTITY, true, 'no assistant message reported a latency, so there is nothing to check', { count: 0 });
    }
    const sorted = timed.map((entry) => entry.latency).sort((left, right) => left - right);
    const p95 = nearestRank(sorted, 0.95);
    const max = sorted[sorted.length - 1] ?? 0;
    const slowest = timed.find((entry) => entry.latency === max);
    const details = { p95, max, count: timed.length, slowest: slowest && { message_index: slowest.index, turn: slowest.turn } };

    const checks: Array<{ label: string; value: number; limit: number | undefined }> = [
      { label: 'p95', value: p95, limit: params.p95_ms },
      { label: 'max', value: max, limit: params.max_ms },
    ];
    const applied = checks.filter((check): check is { label: string; value: number; limit: number } => check.limit !== undefined);
    const exceeded = applied.filter((check) => check.value > check.limit);
    const scope = `over ${countOf(timed.length, 'assistant message')}`;
    if (exceeded.length > 0) {
      const text = exceeded.map((check) => `${check.label} ${ms(check.value)} > ${ms(check.limit)}`).join(', ');
      return verdictResult(IDENTITY, false, `${text} ${scope}`, details);
    }
    const text = applied.map((check) => `${check.label} ${ms(check.value)} ≤ ${ms(check.limit)}`).join(', ');
    return verdictResult(IDENTITY, true, `${text} ${scope}`, details);
  },
});

/**
 * The nearest-rank percentile of ascending values: the smallest value with at least `fraction`
 * of the values at or below it.
 *
 * @example nearestRank([100, 200, 300], 0.95) === 300
 */
export function nearestRank(ascending: number[], fraction: number): number {
  const rank = Math.max(1, Math.ceil(fraction * ascending.length));
  return ascending[rank - 1] ?? 0;
}

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}
