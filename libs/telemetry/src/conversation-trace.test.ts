import type { RunReport } from '@parley/reports';
import { describe, expect, it } from 'vitest';
import { conversationTraces } from './conversation-trace.js';
import { conversationSpans } from './otel-spans.js';
import { promptAgentResult, sampleReport } from './test-support/sample-report.js';

function report(metadataOnly: boolean): RunReport {
  return sampleReport([promptAgentResult(metadataOnly)]);
}

describe('conversationTraces', () => {
  it('gives each call the message it produced, lays the calls end to end, and scores every metric', () => {
    const [trace] = conversationTraces(report(false), { tenants: new Map([['spa_happy', 'test_tenant_spa_happy_0badf00d']]), promptVersions: new Map([['booking', 'booking@abc1234']]) });
    expect(trace!.metadata).toEqual({
      suite: 'ratiba_booking',
      scenario_id: 'spa_happy',
      agent: 'booking',
      tenant: 'test_tenant_spa_happy_0badf00d',
      prompt_version: 'booking@abc1234',
      run_id: 'run-1',
      git_sha: 'abc1234',
      status: 'pass',
      mode: 'replay',
    });
    const user = { role: 'user', parts: [{ type: 'text', content: 'Nataka massage' }] };
    const toolCall = { type: 'tool_call', id: 'call_1', name: 'check_availability', arguments: { day: 'saturday' } };
    expect(trace!.spans.map((span) => [span.input, span.output])).toEqual([
      [[user], [{ role: 'assistant', parts: [toolCall], finish_reason: 'tool_call' }]],
      [
        [user, { role: 'assistant', parts: [toolCall] }, { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: '{"slots":["10:00"]}' }] }],
        [{ role: 'assistant', parts: [{ type: 'text', content: 'Saa nne inafaa?' }], finish_reason: 'stop' }],
      ],
      [undefined, undefined],
    ]);
    const start = Date.parse('2026-11-26T10:00:00.000Z');
    expect(trace!.spans.map((span) => [span.start_ms - start, span.end_ms - start])).toEqual([[0, 120], [120, 200], [200, 500]]);
    expect(trace!.scores.map((score) => [score.name, score.value, score.data_type, score.reason])).toEqual([
      ['conversation_judge', 0.9, 'NUMERIC', 'warm'],
      ['content_signals', 0, 'BOOLEAN', 'missing BK-1042'],
      ['tool_correctness', 1, 'NUMERIC', 'all tools called'],
    ]);
  });

  it('derives the same ids on every export, different ones for another run', () => {
    const once = conversationTraces(report(false))[0]!;
    const again = conversationTraces(report(false))[0]!;
    const other = conversationTraces({ ...report(false), run_id: 'run-2' })[0]!;
    expect(again.trace_id).toBe(once.trace_id);
    expect(again.scores.map((score) => score.id)).toEqual(once.scores.map((score) => score.id));
    expect(other.trace_id).not.toBe(once.trace_id);
    expect(once.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(once.spans.every((span) => /^[0-9a-f]{16}$/.test(span.span_id))).toBe(true);
  });

  it('keeps no content of a metadata_only scenario: no inputs, outputs or reasons, in either dialect', () => {
    const trace = conversationTraces(report(true))[0]!;
    expect(trace.input).toBeUndefined();
    expect(trace.spans.every((span) => span.input === undefined && span.output === undefined)).toBe(true);
    expect(trace.scores.every((score) => score.reason === undefined)).toBe(true);
    for (const dialect of ['langfuse', 'otlp'] as const) {
      const text = JSON.stringify(conversationSpans([trace], { dialect, parleyVersion: '0.1.0' }).spans.map((span) => [span.attributes, span.events]));
      expect(text).not.toContain('warm');
      expect(text).not.toContain('missing BK-1042');
    }
  });

  it('speaks the GenAI conventions to a plain OTLP collector, and Langfuse\'s attributes only to Langfuse', () => {
    const trace = conversationTraces(report(false))[0]!;
    const otlp = conversationSpans([trace], { dialect: 'otlp', parleyVersion: '0.1.0' }).spans;
    expect(otlp[1]!.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4.1-mini', 'gen_ai.usage.input_tokens': { int: 10 } });
    expect(otlp.flatMap((span) => Object.keys(span.attributes)).some((key) => key.startsWith('langfuse.'))).toBe(false);
    expect(otlp[0]!.events.map((event) => event.attributes['gen_ai.evaluation.name'])).toEqual(['conversation_judge', 'content_signals', 'tool_correctness']);
    expect(otlp[1]!.parentSpanId).toBe(otlp[0]!.spanId);
  });

  it('sends no score value for a metric that could not be evaluated, only its error label', () => {
    const result = promptAgentResult(false);
    const errored = { ...result, status: 'error' as const, metrics: [{ metric: 'fluency_sw', version: '1.0.0', score: null, threshold: 0.7, passed: false, error: true, reason: 'fluency_sw could not be evaluated' }] };
    const trace = conversationTraces(sampleReport([errored]))[0]!;
    const [event] = conversationSpans([trace], { dialect: 'otlp', parleyVersion: '0.1.0' }).spans[0]!.events;
    expect(event!.attributes).toEqual({
      'gen_ai.evaluation.name': 'fluency_sw',
      'gen_ai.evaluation.score.label': 'error',
      'error.type': '_OTHER',
      'gen_ai.evaluation.explanation': 'fluency_sw could not be evaluated',
    });
  });
});
