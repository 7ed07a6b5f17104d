import { describe, expect, it } from 'vitest';
import { mergeExpectations } from './merge-expectations.js';

describe('mergeExpectations', () => {
  it('keeps every level, broadest first', () => {
    expect(mergeExpectations([[{ metric: 'a' }], [{ metric: 'b' }], [{ metric: 'c' }]]).map((e) => e.metric)).toEqual(['a', 'b', 'c']);
  });

  it('adds a scenario expectation to a default of the same metric (the suite-wide forbidden list keeps applying)', () => {
    const merged = mergeExpectations([
      [{ metric: 'content_signals', forbidden: ['as an AI language model'] }],
      [],
      [{ metric: 'content_signals', required: ['BK-1042'] }],
    ]);
    expect(merged).toEqual([
      { metric: 'content_signals', forbidden: ['as an AI language model'] },
      { metric: 'content_signals', required: ['BK-1042'] },
    ]);
  });

  it('lets a narrower expectation with only common keys tune the broader ones of its metric', () => {
    const merged = mergeExpectations([
      [{ metric: 'tool_correctness', expected: ['check_availability'], threshold: 0.8 }, { metric: 'latency', max_ms: 5000 }],
      [{ metric: 'tool_correctness', threshold: 1, gate: 'advisory' }],
    ]);
    expect(merged).toEqual([
      { metric: 'tool_correctness', expected: ['check_availability'], threshold: 1, gate: 'advisory' },
      { metric: 'latency', max_ms: 5000 },
    ]);
  });

  it('keeps a tuning-only expectation when there is nothing to tune, and drops exact duplicates', () => {
    const merged = mergeExpectations([
      [{ metric: 'content_signals', forbidden: ['x'] }],
      [{ metric: 'content_signals', forbidden: ['x'] }, { metric: 'max_turns', threshold: 1 }],
    ]);
    expect(merged).toEqual([{ metric: 'content_signals', forbidden: ['x'] }, { metric: 'max_turns', threshold: 1 }]);
  });
});
