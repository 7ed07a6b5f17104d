import type { TimedMonitorScore } from '@parley/store';
import { describe, expect, it } from 'vitest';
import { normalCdf } from '@parley/canary';
import { compareWindows, DEFAULT_WINDOW_COMPARISON, welchZ } from './window-comparison.js';

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

/**
 * Two samples whose Welch statistic is exactly z: {m ± d} against {±d} with d = 1/√2, so each
 * side's sample variance is 2d² = 1, the standard error √(1/2 + 1/2) = 1, and z = m.
 */
function samplesWithZ(z: number): { now: number[]; before: number[] } {
  const d = Math.SQRT1_2;
  return { now: [z + d, z - d], before: [d, -d] };
}

const TWO_SCORES = { alpha: 0.05, minScores: 2 };

describe('the drop test against published values', () => {
  // Standard normal table, lower tail Φ(z) to four decimals.
  it.each([
    [0, 0.5],
    [-1.96, 0.025],
    [-1.645, 0.05],
    [-2.326, 0.01],
    [-1, 0.1587],
    [-3, 0.0013],
    [1.96, 0.975],
  ])('gives p = Φ(%f) = %f from the normal table', (z, table) => {
    const { now, before } = samplesWithZ(z);
    const [window] = compareWindows(scores(now), scores(before), new Map(), TWO_SCORES);
    expect(window!.drop_test!.z).toBeCloseTo(z, 10);
    expect(window!.drop_test!.p_value).toBeCloseTo(table, 4);
    expect(normalCdf(z)).toBeCloseTo(table, 4);
  });

  it('computes Welch\'s statistic of a published example: t = -1.8325 (R\'s t.test, Welch Two Sample t-test)', () => {
    // ts1 = (11, 9, 10, 11, 10, 12, 9, 11, 12, 9), mean 10.4; ts2 = (11, 13, 10, 13, 12, 9, 11, 12, 12, 11), mean 11.4.
    const ts1 = [11, 9, 10, 11, 10, 12, 9, 11, 12, 9];
    const ts2 = [11, 13, 10, 13, 12, 9, 11, 12, 12, 11];
    const [window] = compareWindows(scores(ts1), scores(ts2), new Map(), { alpha: 0.05, minScores: 10 });
    expect(window!.current.mean).toBeCloseTo(10.4, 10);
    expect(window!.previous.mean).toBeCloseTo(11.4, 10);
    expect(window!.drop_test!.z).toBeCloseTo(-1.8325, 4);
    expect(welchZ(ts1, ts2)).toBeCloseTo(-1.8325, 4);
    // One-sided, normal approximation: between the table's Φ(-1.84) = 0.0329 and Φ(-1.83) = 0.0336.
    expect(window!.drop_test!.p_value).toBeGreaterThan(0.0329);
    expect(window!.drop_test!.p_value).toBeLessThan(0.0336);
    expect(window!.drop_test!.significant).toBe(true);
    expect(compareWindows(scores(ts1), scores(ts2), new Map(), { alpha: 0.01, minScores: 10 })[0]!.drop_test!.significant).toBe(false);
  });

  it('reads identical windows as no change (whatever the rounding of their means), and constant windows as certain', () => {
    // 40 scores of 0.7 average 0.6999999999999995 in floating point, 160 average 0.7000000000000018.
    for (const score of [0.7, 0.8, 0.9]) {
      const [same] = compareWindows(scores(Array(40).fill(score)), scores(Array(160).fill(score)), new Map(), DEFAULT_WINDOW_COMPARISON);
      expect(same!.drop_test).toEqual({ z: 0, p_value: expect.closeTo(0.5, 6), significant: false });
      expect(same!.alerts).toEqual([]);
    }
    const [dropped] = compareWindows(scores([0.6, 0.6]), scores([0.8, 0.8]), new Map(), TWO_SCORES);
    expect(dropped!.drop_test).toEqual({ z: -Infinity, p_value: 0, significant: true });
  });
});

describe('compareWindows', () => {
  it('alerts on a significant drop, and names the numbers and the p-value', () => {
    const [window] = compareWindows(scores(around(0.7, 40)), scores(around(0.85, 160)), new Map([['conversation_judge', 0.5]]));
    expect(window!.drop_test!.significant).toBe(true);
    // Variances 40 × 0.01 / 39 and 160 × 0.01 / 159; z = −0.15 / √(0.010256 / 40 + 0.010063 / 160) = −8.394.
    expect(window!.drop_test!.z).toBeCloseTo(-8.394, 3);
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

describe('compareWindows: what counts', () => {
  it('leaves out errors and unscored results, keeps metrics apart, and lists a floored metric with no scores', () => {
    const judged = scores([0.9, 0.8]);
    const errored = { ...scores([0.1])[0]!, error: true };
    const unscored = { ...scores([0.1])[0]!, score: null };
    const other = scores([0.2], 'fluency_sw');
    const windows = compareWindows([...judged, errored, unscored, ...other], [], new Map([['conversation_judge', 0.5], ['tool_correctness', 0.9]]), { alpha: 0.01, minScores: 1 });
    expect(windows.map((window) => [window.metric, window.current.n, window.current.mean, window.below_floor])).toEqual([
      ['conversation_judge', 2, 0.8500000000000001, false],
      ['fluency_sw', 1, 0.2, false],
      ['tool_correctness', 0, null, false],
    ]);
  });
});
