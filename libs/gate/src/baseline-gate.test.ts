import type { MetricResult } from '@parley/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gateAgainstBaseline, type BaselineGateInput } from './baseline-gate.js';
import { indexBaseline } from './baseline-index.js';

const COMMAND = 'parley run suite --export-baseline baseline.json';

function scored(score: number, overrides: Partial<MetricResult> = {}): MetricResult {
  return {
    metric: 'tool_correctness',
    version: '1.0.0',
    score,
    threshold: 0.8,
    passed: score >= 0.8,
    reason: `tool_correctness ${score}`,
    ...overrides,
  };
}

const verdict: MetricResult = { metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: false, reason: 'forbidden "x"' };

function gate(metrics: MetricResult[], entries: Array<{ metric?: string; score: number }>, extra: Partial<BaselineGateInput> = {}): MetricResult[] {
  return gateAgainstBaseline({
    scenarioId: 'q_1',
    metrics,
    overrides: [],
    baseline: indexBaseline({ entries: entries.map((entry) => ({ test_id: 'q_1', metric: entry.metric ?? 'tool_correctness', score: entry.score })) }),
    strict: false,
    createCommand: COMMAND,
    ...extra,
  });
}

describe('gateAgainstBaseline', () => {
  describe('a required rubric criterion that is not met is a hard floor', () => {
    // A judge scored the conversation 5 of 5, but a required criterion is unmet: the metric failed.
    const unmet = (): MetricResult => ({
      ...scored(1, { metric: 'slot_consistency', passed: false, reason: 'required criterion "offered_slot" not met; slot_consistency 1.00 ≥ 0.70' }),
      details: { unmet_required: ['offered_slot'] },
    });
    const cases: Array<[string, Array<{ metric?: string; score: number }>, Partial<BaselineGateInput>]> = [
      ['within the baseline (relative mode)', [{ metric: 'slot_consistency', score: 1 }], {}],
      ['an improvement on the baseline', [{ metric: 'slot_consistency', score: 0.4 }], {}],
      ['above min_floor', [{ metric: 'slot_consistency', score: 1 }], { suiteDefault: { max_drop: 0.05, min_floor: 0.5 } }],
      ['a generous per-expectation max_drop', [{ metric: 'slot_consistency', score: 1 }], { overrides: [{ max_drop: 1 }] }],
      ['absolute mode', [{ metric: 'slot_consistency', score: 1 }], { suiteDefault: { mode: 'absolute' } }],
      ['no baseline entry', [], {}],
    ];
    it.each(cases)('stays failed: %s', (_name, entries, extra) => {
      const [result] = gate([unmet()], entries, extra);
      expect(result!.passed).toBe(false);
      expect(result!.reason).toContain('"offered_slot" not met');
      expect(result!.details?.['warn']).toBeUndefined();
    });

    it('never passes over any baseline score, max_drop or floor (property)', () => {
      fc.assert(
        fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.option(fc.double({ min: 0, max: 1, noNaN: true })), (baseline, maxDrop, floor) => {
          const [result] = gate([unmet()], [{ metric: 'slot_consistency', score: baseline }], { suiteDefault: { max_drop: maxDrop, ...(floor !== null ? { min_floor: floor } : {}) } });
          return result!.passed === false;
        }),
        { seed: 13 },
      );
    });
  });

  it('baseline 0.92, current 0.85, max_drop 0.05 fails with the numbers in the reason', () => {
    const [result] = gate([scored(0.85)], [{ score: 0.92 }], { suiteDefault: { max_drop: 0.05 } });
    expect(result!.passed).toBe(false);
    expect(result!.reason).toContain('regressed against the baseline: baseline 0.92, current 0.85, delta -0.07 exceeds the allowed drop 0.05');
    expect(result!.details).toMatchObject({ baseline_score: 0.92, max_drop: 0.05, regression: true, below_floor: false });
    expect(result!.details!['baseline_delta']).toBeCloseTo(-0.07, 10);
  });

  it('baseline 0.80, current 0.82 passes', () => {
    const [result] = gate([scored(0.82)], [{ score: 0.8 }], { suiteDefault: { max_drop: 0.05 } });
    expect(result!.passed).toBe(true);
    expect(result!.reason).toContain('within the baseline: baseline 0.8, current 0.82, delta +0.02 (allowed drop 0.05)');
  });

  it('passes a drop exactly at max_drop despite floating point', () => {
    const [result] = gate([scored(0.85)], [{ score: 0.9 }], { suiteDefault: { max_drop: 0.05 } });
    expect(result!.passed).toBe(true);
  });

  it('fails a score below min_floor even when the drop is within max_drop', () => {
    const [result] = gate([scored(0.85)], [{ score: 0.87 }], { suiteDefault: { max_drop: 0.05, min_floor: 0.86 } });
    expect(result!.passed).toBe(false);
    expect(result!.reason).toContain('below min_floor 0.86: baseline 0.87, current 0.85, delta -0.02');
    expect(result!.details).toMatchObject({ below_floor: true, regression: false, min_floor: 0.86 });
  });

  it('in relative mode the baseline replaces the metric threshold: a low but stable score passes', () => {
    const [result] = gate([scored(0.7)], [{ score: 0.7 }]);
    expect(result!.passed).toBe(true);
  });

  it('in absolute mode the metric keeps its verdict and only reports the delta', () => {
    const [low] = gate([scored(0.7)], [{ score: 0.95 }], { overrides: [{ mode: 'absolute' }] });
    expect(low!.passed).toBe(false);
    expect(low!.reason).toContain('absolute thresholding, the baseline does not gate: baseline 0.95, current 0.7, delta -0.25');
    const [high] = gate([scored(0.85)], [{ score: 0.99 }], { overrides: [{ mode: 'absolute' }] });
    expect(high!.passed).toBe(true);
  });

  it('uses the per-expectation override over the suite default', () => {
    const metrics = [scored(0.85), scored(0.85, { metric: 'other' })];
    const results = gate(metrics, [{ score: 0.92 }, { metric: 'other', score: 0.92 }], {
      suiteDefault: { max_drop: 0.05 },
      overrides: [{ max_drop: 0.1 }, undefined],
    });
    expect(results.map((result) => result.passed)).toEqual([true, false]);
  });

  it('warns on a missing entry with the command that creates it, keeping the verdict', () => {
    const [result] = gate([scored(0.9)], []);
    expect(result!.passed).toBe(true);
    expect(result!.details).toMatchObject({ warn: true, baseline_missing: true });
    expect(result!.reason).toContain(`no baseline entry for scenario "q_1", metric "tool_correctness"; create it with: ${COMMAND}`);
  });

  it('fails a missing entry under --strict', () => {
    const [result] = gate([scored(0.9)], [], { strict: true });
    expect(result!.passed).toBe(false);
    expect(result!.reason).toContain('fails under --strict');
    expect(result!.details?.['warn']).toBeUndefined();
  });

  it('still applies min_floor when the entry is missing', () => {
    const [result] = gate([scored(0.85)], [], { suiteDefault: { min_floor: 0.9 } });
    expect(result!.passed).toBe(false);
    expect(result!.reason).toContain('below min_floor 0.9: current 0.85');
  });

  it('never gates pass/fail metrics or unevaluated ones', () => {
    const unevaluated = scored(0, { score: null, error: true, passed: false });
    const metrics = [verdict, unevaluated];
    expect(gate(metrics, [{ metric: 'content_signals', score: 1 }])).toEqual(metrics);
  });

  it('pairs a repeated metric with its own entry', () => {
    const results = gate([scored(0.9), scored(0.5)], [{ score: 0.9 }, { metric: 'tool_correctness#2', score: 0.9 }]);
    expect(results.map((result) => result.passed)).toEqual([true, false]);
  });

  it('fails exactly when the drop exceeds max_drop or the score is under the floor', () => {
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(unit, unit, unit, fc.option(unit, { nil: undefined }), (current, baseline, maxDrop, floor) => {
        const [result] = gate([scored(current)], [{ score: baseline }], {
          suiteDefault: { max_drop: maxDrop, ...(floor !== undefined ? { min_floor: floor } : {}) },
        });
        const fails = current - baseline < -maxDrop - 1e-9 || (floor !== undefined && current < floor - 1e-9);
        expect(result!.passed).toBe(!fails);
      }),
    );
  });
});
