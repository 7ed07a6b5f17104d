import type { TimedMonitorScore } from '@parley/store';
import { describe, expect, it } from 'vitest';
import { normalCdf } from '@parley/canary';
import { compareWindows, welchZ } from './window-comparison.js';

function scores(values: readonly number[], metric = 'conversation_judge'): TimedMonitorScore[] {
  return values.map((score, index) => ({
    conversation_id: `c${index}`,
    metric,
    metric_version: '1.0.0',
    score,
    threshold: 0.7,
    passed: score >= 0.7,
    error: false,
    reason: '',
    judge_model: 'openai:gpt-4.1',
    prompt_version: null,
    at: '2026-11-26T10:00:00.000Z',
  }));
}

/** n values alternating around a mean (spread ± 0.1). */
function around(mean: number, n: number): number[] {
  return Array.from({ length: n }, (_, index) => mean + (index % 2 === 0 ? 0.1 : -0.1));
}

describe('normalCdf', () => {
  it('matches the standard normal table', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(-1.959964)).toBeCloseTo(0.025, 5);
    expect(normalCdf(-2.326348)).toBeCloseTo(0.01, 5);
    expect(normalCdf(1.644854)).toBeCloseTo(0.95, 5);
  });
});

describe('compareWindows', () => {
  it('alerts on a significant drop, and names the numbers and the p-value', () => {
    const [window] = compareWindows(scores(around(0.7, 40)), scores(around(0.85, 160)), new Map([['conversation_judge', 0.5]]));
    expect(window!.drop_test!.significant).toBe(true);
    expect(window!.drop_test!.z).toBeCloseTo(welchZ(around(0.7, 40), around(0.85, 160)), 10);
    expect(window!.alerts).toEqual(['conversation_judge: mean dropped from 0.850 (160 before) to 0.700 (40 now), p = < 0.0001 < 0.01']);
  });

  it('says nothing about noise: the same mean, or a rise', () => {
    for (const now of [0.85, 0.9]) {
      const [window] = compareWindows(scores(around(now, 40)), scores(around(0.85, 160)), new Map([['conversation_judge', 0.5]]));
      expect(window!.drop_test!.significant).toBe(false);
      expect(window!.alerts).toEqual([]);
    }
  });

  it('alerts below the floor whatever the history, and does not test a drop on too few scores', () => {
    const [window] = compareWindows(scores([0.4, 0.5]), [], new Map([['conversation_judge', 0.6]]));
    expect(window!.below_floor).toBe(true);
    expect(window!.drop_test).toBeUndefined();
    expect(window!.not_tested).toBe('drop test needs 30 scores in the window and in the previous windows (has 2 and 0)');
    expect(window!.alerts).toEqual(['conversation_judge: mean 0.450 over 2 conversations is below its floor 0.60']);
  });
});
