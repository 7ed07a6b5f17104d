import { describe, expect, it } from 'vitest';
import { compareAgents } from '@parley/compare';
import type { MetricResult } from '@parley/core';
import { comparisonLines } from './agent-comparison-table.js';

const metric = (name: string, score: number): MetricResult => ({ metric: name, version: '1', score, threshold: 0.7, passed: score >= 0.7, reason: '' });

describe('comparisonLines', () => {
  it('lists the winner per metric and each agent’s cost and latency, cut to the width', () => {
    const comparison = compareAgents(
      ['s1', 's2', 's3', 's4', 's5', 's6'].flatMap((id) => [
        { scenario_id: id, agent: 'booking', status: 'pass' as const, gate: 'blocking' as const, metrics: [metric('slots', 1), metric('fluency_sw', 0.9)], cost: { input_tokens: 1, output_tokens: 1, usd: 0.01, calls: 1 } },
        { scenario_id: `${id}@booking_v2`, agent: 'booking_v2', status: 'fail' as const, gate: 'blocking' as const, metrics: [metric('slots', 0.5), metric('fluency_sw', 0.9)], cost: { input_tokens: 1, output_tokens: 1, usd: 0.02, calls: 1 } },
      ]),
      ['booking', 'booking_v2'],
    );
    const lines = comparisonLines(comparison, 80);
    expect(lines[0]).toBe('booking vs booking_v2 · winner per metric (paired test)');
    expect(lines).toContain('  fluency_sw 0.90 → 0.90   0.00  p 1.000  no clear winner');
    expect(lines).toContain('  slots      1.00 → 0.50  -0.50  p 0.031  booking');
    expect(lines.at(-1)).toBe('  booking $0.0600, – · booking_v2 $0.1200, –');
    for (const line of comparisonLines(comparison, 30)) expect(line.length).toBeLessThanOrEqual(30);
  });
});
