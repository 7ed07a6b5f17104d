import { beforeAll, describe, expect, it } from 'vitest';
import type { MetricResult } from '@parley/core';
import type { AgentComparisonReport } from '@parley/reports';
import { paint } from './output.js';
import { renderComparison } from './comparison-table.js';

function metric(name: string, score: number): MetricResult {
  return { metric: name, version: '1', score, threshold: 0.7, passed: score >= 0.7, reason: '' };
}

let comparison: AgentComparisonReport;
// @parley/compare is loaded lazily by the CLI (only `compare` and comparison runs need it).
beforeAll(async () => {
  const { compareAgents } = await import('@parley/compare');
  comparison = compareAgents(
  ['spa_booking_swahili_happy_with_a_long_scenario_id', 'spa_reschedule_sw', 's3', 's4', 's5', 's6'].flatMap((id) => [
    {
      scenario_id: id,
      agent: 'booking',
      status: 'pass' as const,
      gate: 'blocking' as const,
      metrics: [metric('booking_slot_consistency', 1), metric('fluency_sw', 0.9)],
      cost: { input_tokens: 1, output_tokens: 1, usd: 0.01, calls: 1 },
    },
    {
      scenario_id: `${id}@booking_v2_with_a_long_name`,
      agent: 'booking_v2_with_a_long_name',
      status: 'fail' as const,
      gate: 'blocking' as const,
      metrics: [metric('booking_slot_consistency', 0.5), metric('fluency_sw', 0.9)],
      cost: { input_tokens: 1, output_tokens: 1, usd: null, calls: 1 },
    },
  ]),
  ['booking', 'booking_v2_with_a_long_name'],
  );
});

describe('renderComparison', () => {
  it('fits 80 columns and names a winner per metric', () => {
    const text = renderComparison(comparison, paint(false), 80);
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThan(80);
    expect(text).toMatch(/^booking_slot_consistency +1\.00 +0\.50 +-0\.50 +0\.031 +booking$/m);
    expect(text).toMatch(/^fluency_sw +0\.90 +0\.90 +0\.00 +1\.000 +no clear winner$/m);
    expect(text).toMatch(/^booking_v2_with_a\S* +6 +0 +6 +0 +unknown/m); // a model without a price: cost unknown, never $0
    expect(text).toMatch(/^spa_booking_swahili_happy_with_a_long_scenario_id$/m);
    expect(renderComparison(comparison, paint(false), 50)).toMatch(/^spa_\S*…$/m); // cut, not wrapped
  });

  it('colours the winner only when colour is on', () => {
    expect(renderComparison(comparison, paint(true), 80)).toContain('\u001b[1mbooking');
    expect(renderComparison(comparison, paint(false), 80)).not.toMatch(/\u001b\[/);
  });
});
