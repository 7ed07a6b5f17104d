import { describe, expect, it } from 'vitest';
import { contentSignalsMetric } from './content-signals.js';
import { evaluateExpectation, metricParamsOf } from './evaluate-expectation.js';
import { conversation } from './test-support/transcript-builder.js';
import { toolCorrectnessMetric } from './tool-correctness.js';

const input = conversation().user('hi').calls({ name: 'search', args: { q: 'x' } }).assistant('Hello there').input();

describe('metricParamsOf', () => {
  it('takes out the keys every expectation shares', () => {
    expect(
      metricParamsOf({ metric: 'tool_correctness', threshold: 0.9, gate: 'advisory', thresholding: { max_drop: 0 }, expected: ['a'], mode: 'exact' }),
    ).toEqual({ expected: ['a'], mode: 'exact' });
  });
});

describe('evaluateExpectation', () => {
  it('passes common keys through without the metric seeing them as parameters', () => {
    const result = evaluateExpectation(contentSignalsMetric, input, {
      metric: 'content_signals',
      gate: 'advisory',
      thresholding: { max_drop: 0 },
      required: ['hello'],
    });
    expect(result).toMatchObject({ metric: 'content_signals', version: '1.0.0', passed: true, threshold: null });
  });

  it("uses the expectation's threshold, else the metric's default", () => {
    const expectation = { metric: 'tool_correctness', expected: ['search', 'book'] };
    expect(evaluateExpectation(toolCorrectnessMetric, input, expectation)).toMatchObject({ score: 0.5, threshold: 0.8, passed: false });
    expect(evaluateExpectation(toolCorrectnessMetric, input, { ...expectation, threshold: 0.5 })).toMatchObject({ threshold: 0.5, passed: true });
  });

  it('ignores a threshold given to a pass/fail metric', () => {
    const result = evaluateExpectation(contentSignalsMetric, input, { metric: 'content_signals', required: ['hello'], threshold: 0.9 });
    expect(result).toMatchObject({ score: null, threshold: null, passed: true });
  });

  it('turns a parameter error into a failed, flagged result with the schema message and path', () => {
    const result = evaluateExpectation(toolCorrectnessMetric, input, { metric: 'tool_correctness', expected: ['a'], mode: 'fuzzy' });
    expect(result).toMatchObject({ metric: 'tool_correctness', passed: false, error: true, score: null, threshold: 0.8 });
    expect(result.reason).toMatch(/^tool_correctness has invalid parameters: mode: /);
    const unknownKey = evaluateExpectation(toolCorrectnessMetric, input, { metric: 'tool_correctness', expected: ['a'], expectd: [] });
    expect(unknownKey.reason).toMatch(/expectd/);
  });
});
