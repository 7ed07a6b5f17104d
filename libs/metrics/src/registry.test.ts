import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Transcript } from '@parley/core';
import { evaluateExpectation } from './evaluate-expectation.js';
import { deterministicMetrics } from './registry.js';
import { inputOf } from './test-support/transcript-builder.js';

/** Valid parameters for each metric, so every metric can be run against odd transcripts. */
const SAMPLE_PARAMS: Record<string, Record<string, unknown>> = {
  content_signals: { required: ['a'], forbidden: ['b'] },
  tool_correctness: { expected: ['a', { name: 'b', args: { x: 1 } }] },
  regex: { pattern: 'a', match: 'all' },
  json_schema: { schema: { type: 'object' } },
  max_turns: { max: 2 },
  latency: { p95_ms: 100 },
  state_path: { expected: ['s'] },
};

describe('deterministicMetrics', () => {
  it('holds the seven documented deterministic metrics under their names', () => {
    expect(Object.keys(deterministicMetrics).sort()).toEqual(Object.keys(SAMPLE_PARAMS).sort());
    for (const [name, metric] of Object.entries(deterministicMetrics)) {
      expect(metric).toMatchObject({ name, kind: 'deterministic' });
      expect(metric.version).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(deterministicMetrics['tool_correctness']?.defaultThreshold).toBe(0.8);
  });

  it('finds nothing for names of Object methods', () => {
    expect(deterministicMetrics['constructor']).toBeUndefined();
    expect(deterministicMetrics['toString']).toBeUndefined();
  });

  it('rejects unknown parameters in every metric', () => {
    for (const [name, params] of Object.entries(SAMPLE_PARAMS)) {
      expect(deterministicMetrics[name]?.params.safeParse({ ...params, unknown_key: 1 }).success, name).toBe(false);
      expect(deterministicMetrics[name]?.params.safeParse(params).success, name).toBe(true);
    }
  });
});

describe('every metric on a malformed transcript', () => {
  const malformed: Array<[string, unknown, string]> = [
    ['no transcript', undefined, 'the transcript is not an object'],
    ['turns missing', { ended_by: 'script' }, 'the transcript has no list of turns'],
    ['a null message', { turns: [null] }, 'transcript message 1 is not an object'],
    ['an unknown role', { turns: [{ role: 'system', content: '', turn: 1 }] }, 'transcript message 1 has an unknown role "system"'],
    ['content that is not text', { turns: [{ role: 'assistant', content: 42, turn: 1 }] }, 'transcript message 1 (assistant) has no text content'],
    ['no turn number', { turns: [{ role: 'user', content: 'x' }] }, 'transcript message 1 (user) has no user turn number'],
    ['tool calls not a list', { turns: [{ role: 'assistant', content: '', turn: 1, tool_calls: {} }] }, 'transcript message 1 (assistant) has tool_calls that are not a list'],
    ['a nameless tool call', { turns: [{ role: 'assistant', content: '', turn: 1, tool_calls: [{ args: {} }] }] }, 'transcript message 1 (assistant) has tool call 1 without a name'],
    ['args that are a list', { turns: [{ role: 'assistant', content: '', turn: 1, tool_calls: [{ name: 'a', args: [1] }] }] }, 'transcript message 1 (assistant) has tool call 1 (a) whose args are not an object'],
    ['a latency that is text', { turns: [{ role: 'assistant', content: 'x', turn: 1, latency_ms: '5' }] }, 'transcript message 1 (assistant) has a latency that is not a non-negative number'],
    ['a state that is a number', { turns: [{ role: 'assistant', content: 'x', turn: 1, state: 3 }] }, 'transcript message 1 (assistant) has a state that is not a string'],
  ];

  it.each(malformed)('%s gives a failed error result, never a throw', (_, transcript, problem) => {
    for (const [name, params] of Object.entries(SAMPLE_PARAMS)) {
      const metric = deterministicMetrics[name];
      if (metric === undefined) throw new Error(`missing ${name}`);
      const input = { transcript: transcript as Transcript, scenario: { id: 'odd' } };
      const result = evaluateExpectation(metric, input, { metric: name, ...params });
      expect(result).toMatchObject({ metric: name, passed: false, error: true, score: null });
      expect(result.reason).toBe(`${name} could not be evaluated: ${problem}`);
    }
  });

  it('accepts a tool call without args (the engine may leave them out)', () => {
    const transcript = { turns: [{ role: 'assistant', content: '', turn: 1, tool_calls: [{ name: 'a' }] }], ended_by: 'script' };
    const result = evaluateExpectation(deterministicMetrics['tool_correctness']!, inputOf(transcript as Transcript), {
      metric: 'tool_correctness',
      expected: [{ name: 'a', args: {} }],
    });
    expect(result).toMatchObject({ score: 1, passed: true });
  });

  it('never throws on arbitrary well-formed transcripts', () => {
    const message = fc.record(
      {
        role: fc.constantFrom('user', 'assistant', 'tool'),
        content: fc.oneof(fc.string(), fc.constantFrom('a', 'b', '{}', '```json\n{}\n```')),
        turn: fc.integer({ min: 1, max: 4 }),
        latency_ms: fc.nat(5000),
        state: fc.constantFrom('s', 't'),
        tool_calls: fc.array(fc.record({ name: fc.constantFrom('a', 'b'), args: fc.dictionary(fc.string(), fc.jsonValue()) }), { maxLength: 2 }),
      },
      { requiredKeys: ['role', 'content', 'turn'] },
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (turns) => {
        for (const [name, params] of Object.entries(SAMPLE_PARAMS)) {
          const metric = deterministicMetrics[name]!;
          const result = evaluateExpectation(metric, inputOf({ turns, ended_by: 'script' }), { metric: name, ...params });
          expect(result.error, `${name}: ${result.reason}`).toBeUndefined();
          expect(typeof result.reason).toBe('string');
        }
      }),
    );
  });
});
