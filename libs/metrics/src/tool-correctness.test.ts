import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '@parley/core';
import { evaluateExpectation } from './evaluate-expectation.js';
import { conversation, inputOf, toolCall } from './test-support/transcript-builder.js';
import { scoreToolCalls, toolCorrectnessMetric } from './tool-correctness.js';
import type { ExpectedCall } from './tool-call-alignment.js';

type Mode = 'default' | 'ordered' | 'exact';

function evaluateCalls(actual: ToolCall[], params: Record<string, unknown>, threshold?: number) {
  const input = conversation().user('please book').calls(...actual).assistant('done').input();
  return evaluateExpectation(toolCorrectnessMetric, input, { metric: 'tool_correctness', ...params, ...(threshold === undefined ? {} : { threshold }) });
}

describe('tool_correctness: DeepEval worked example', () => {
  const actual = [toolCall('book', { id: 1, n: 3 }), toolCall('search', { q: 'paris' }), toolCall('weather', { c: 'x' })];
  const withArgs = [
    { name: 'search', args: { q: 'paris' } },
    { name: 'book', args: { id: 1, n: 2 } },
  ];

  it.each<[string, unknown[], Mode, number]>([
    ['names only, default', ['search', 'book'], 'default', 1],
    ['with arguments, default', withArgs, 'default', 0.75],
    ['with arguments, ordered', withArgs, 'ordered', 0.5],
    ['with arguments, exact', withArgs, 'exact', 0],
    ['names only, exact', ['search', 'book'], 'exact', 0],
  ])('%s → %d', (_, expected, mode, score) => {
    expect(evaluateCalls(actual, { expected, mode }).score).toBeCloseTo(score, 12);
  });

  it('explains the failing default score with the differing argument', () => {
    const result = evaluateCalls(actual, { expected: withArgs });
    expect(result.passed).toBe(false);
    expect(result.threshold).toBe(0.8);
    expect(result.reason).toBe('tool_correctness 0.75 < 0.8: book args differ (n: expected 2, got 3)');
    expect(result.details).toEqual({
      mode: 'default',
      matches: [
        { expected: 'search', actual_index: 1, similarity: 1 },
        { expected: 'book', actual_index: 0, similarity: 0.5 },
      ],
      unexpected: [{ index: 2, name: 'weather' }],
      actual: ['book', 'search', 'weather'],
    });
  });

  it('passes when the expectation lowers the threshold', () => {
    const result = evaluateCalls(actual, { expected: withArgs }, 0.7);
    expect(result).toMatchObject({ passed: true, threshold: 0.7, score: 0.75 });
    expect(result.reason).toBe('tool_correctness 0.75 ≥ 0.7: book args differ (n: expected 2, got 3)');
  });

  it('names the out-of-order call in ordered mode and the positions in exact mode', () => {
    expect(evaluateCalls(actual, { expected: withArgs, mode: 'ordered' }).reason).toBe(
      'tool_correctness 0.5 < 0.8: book called out of order',
    );
    expect(evaluateCalls(actual, { expected: withArgs, mode: 'exact' }).reason).toBe(
      'tool_correctness 0 < 0.8: expected 2 calls, got 3; call 1: expected search, got book (and 1 more)',
    );
  });
});

describe('tool_correctness: matching', () => {
  it('matches duplicate expected calls by position, each actual call used once', () => {
    expect(evaluateCalls([toolCall('a'), toolCall('a')], { expected: ['a', 'a'] }).score).toBe(1);
    const short = evaluateCalls([toolCall('a')], { expected: ['a', 'a'] });
    expect(short.score).toBe(0.5);
    expect(short.reason).toBe('tool_correctness 0.5 < 0.8: a called fewer times than expected');
  });

  it('takes the most similar unused call, and the earliest among equals', () => {
    const actual = [toolCall('book', { id: 9 }), toolCall('book', { id: 1 }), toolCall('book', { id: 1 })];
    const result = evaluateCalls(actual, { expected: [{ name: 'book', args: { id: 1 } }] });
    expect(result.details?.['matches']).toEqual([{ expected: 'book', actual_index: 1, similarity: 1 }]);
  });

  it('never pairs calls to different tools', () => {
    const result = evaluateCalls([toolCall('search', { q: 'x' })], { expected: [{ name: 'book', args: {} }] });
    expect(result.score).toBe(0);
    expect(result.details?.['matches']).toEqual([{ expected: 'book', actual_index: null, similarity: 0 }]);
    expect(result.reason).toBe('tool_correctness 0 < 0.8: book not called');
  });

  it('scores nested arguments by their own similarity', () => {
    const actual = [toolCall('book', { slot: { day: 'sat', time: '10:00' }, n: 1 })];
    const result = evaluateCalls(actual, { expected: [{ name: 'book', args: { slot: { day: 'sat', time: '14:00' }, n: 1 } }] });
    expect(result.score).toBe(0.75);
    expect(result.reason).toContain('book args differ (slot.time: expected "14:00", got "10:00")');
  });

  it('compares only names for an expected call without args', () => {
    expect(evaluateCalls([toolCall('book', { id: 3 })], { expected: [{ name: 'book' }] }).score).toBe(1);
  });

  it.each<[string, string[], ToolCall[], number, string]>([
    ['both empty', [], [], 1, 'tool_correctness 1 ≥ 0.8'],
    ['expected empty, calls made', [], [toolCall('search')], 0, 'tool_correctness 0 < 0.8: no tool call expected, got search'],
    ['expected calls, none made', ['search'], [], 0, 'tool_correctness 0 < 0.8: search not called'],
  ])('%s', (_, expected, actual, score, reason) => {
    for (const mode of ['default', 'ordered', 'exact']) {
      const result = evaluateCalls(actual, { expected, mode });
      expect(result.score).toBe(score);
      if (mode === 'default') expect(result.reason).toBe(reason);
    }
  });

  it('documents the greedy order: an earlier expected call may take the call a later one needed more', () => {
    // e1 is equally close to both calls and takes the earlier one, so e2 gets the poorer match.
    const expected: ExpectedCall[] = [{ name: 'a', args: { x: 1 } }, { name: 'a', args: { x: 1, y: 1 } }];
    const first = toolCall('a', { x: 1, y: 1 });
    const second = toolCall('a', { x: 1, z: 1 });
    expect(scoreToolCalls(expected, [first, second], 'default').score).toBeCloseTo((1 / 2 + 1 / 3) / 2, 12);
    expect(scoreToolCalls(expected, [second, first], 'default').score).toBeCloseTo((1 / 2 + 1) / 2, 12);
  });
});

describe('tool_correctness: parameters', () => {
  it.each([
    [{ expected: 'search' }],
    [{ expected: [{ name: 'search', arguments: {} }] }],
    [{ expected: [''] }],
    [{ expected: ['search'], mode: 'fuzzy' }],
    [{ expected: ['search'], extra: true }],
  ])('rejects %j', (params) => {
    const result = evaluateCalls([], params);
    expect(result).toMatchObject({ passed: false, error: true, score: null });
    expect(result.reason).toMatch(/^tool_correctness has invalid parameters: /);
  });
});

const toolName = fc.constantFrom('a', 'b', 'c');
const leaf = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom('x', 'y'), fc.boolean());
const argumentsArbitrary: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  fc.constantFrom('p', 'q', 'r'),
  fc.oneof(leaf, fc.dictionary(fc.constantFrom('p', 'q'), leaf, { maxKeys: 2 })),
  { maxKeys: 3 },
);
const actualCall = fc.record({ name: toolName, args: argumentsArbitrary });
const expectedCall: fc.Arbitrary<ExpectedCall> = fc.oneof(fc.record({ name: toolName }), fc.record({ name: toolName, args: argumentsArbitrary }));
const mode = fc.constantFrom<Mode>('default', 'ordered', 'exact');
const calls = fc.array(actualCall, { maxLength: 6 });

describe('tool_correctness: laws', () => {
  it('scores in [0, 1] in every mode', () => {
    fc.assert(
      fc.property(fc.array(expectedCall, { maxLength: 6 }), calls, mode, (expected, actual, chosen) => {
        const { score } = scoreToolCalls(expected, actual, chosen);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('scores 1 in every mode when the agent made exactly the expected calls', () => {
    fc.assert(
      fc.property(calls, mode, (actual, chosen) => {
        const expected = actual.map((call) => ({ name: call.name, args: call.args }));
        expect(scoreToolCalls(expected, actual, chosen).score).toBe(1);
      }),
    );
  });

  it('exact is 0 or 1, and 1 only when default and ordered are 1 too', () => {
    fc.assert(
      fc.property(fc.array(expectedCall, { maxLength: 4 }), fc.array(actualCall, { maxLength: 4 }), (expected, actual) => {
        const exact = scoreToolCalls(expected, actual, 'exact').score;
        expect([0, 1]).toContain(exact);
        if (exact === 1) {
          expect(scoreToolCalls(expected, actual, 'default').score).toBe(1);
          expect(scoreToolCalls(expected, actual, 'ordered').score).toBe(1);
        }
      }),
    );
  });

  it('default score ignores the order of actual calls when expected calls name tools only', () => {
    fc.assert(
      fc.property(fc.array(toolName, { maxLength: 6 }), calls, fc.integer(), (names, actual, seed) => {
        const expected = names.map((name) => ({ name }));
        const shuffled = shuffle(actual, seed);
        expect(scoreToolCalls(expected, shuffled, 'default').score).toBe(scoreToolCalls(expected, actual, 'default').score);
      }),
    );
  });

  it('default score ignores the order of actual calls to distinct tools', () => {
    const distinct = fc.uniqueArray(actualCall, { selector: (call) => call.name, maxLength: 3 });
    fc.assert(
      fc.property(fc.array(expectedCall, { maxLength: 5 }), distinct, fc.integer(), (expected, actual, seed) => {
        const shuffled = shuffle(actual, seed);
        expect(scoreToolCalls(expected, shuffled, 'default').score).toBeCloseTo(scoreToolCalls(expected, actual, 'default').score, 12);
      }),
    );
  });

  it('evaluate never throws and agrees with scoreToolCalls', () => {
    fc.assert(
      fc.property(fc.array(expectedCall, { maxLength: 4 }), calls, mode, (expected, actual, chosen) => {
        const result = toolCorrectnessMetric.evaluate(inputOf(conversation().user('x').calls(...actual).build()), { expected, mode: chosen }, null);
        expect(result.score).toBe(scoreToolCalls(expected, actual, chosen).score);
      }),
    );
  });
});

/** A deterministic permutation (Fisher–Yates driven by a linear congruential sequence). */
function shuffle<T>(items: T[], seed: number): T[] {
  const copy = [...items];
  let state = seed >>> 0;
  for (let index = copy.length - 1; index > 0; index -= 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}
