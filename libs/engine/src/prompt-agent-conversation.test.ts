import { describe, expect, it } from 'vitest';
import type { CallContext, CompletionRequest, CompletionResponse, Provider, ToolCall } from '@parley/core';
import type { PromptAgentConfig, ScenarioFile } from '@parley/config';
import { runPromptConversation } from './prompt-agent-conversation.js';

/** A provider that answers from a list and keeps every request it saw. */
function scriptedProvider(replies: Array<{ content?: string; tool_calls?: ToolCall[] } | Error>) {
  const seen: Array<{ request: CompletionRequest; context: CallContext }> = [];
  const provider: Provider = {
    async complete(request, context) {
      seen.push({ request: structuredClone(request), context });
      const next = replies.shift();
      if (!next) throw new Error('no more scripted replies');
      if (next instanceof Error) throw next;
      const response: CompletionResponse = {
        content: next.content ?? '',
        tool_calls: next.tool_calls ?? [],
        usage: { input_tokens: 10, output_tokens: 5 },
        finish_reason: next.tool_calls ? 'tool_calls' : 'stop',
        model: request.model,
        latency_ms: 42,
      };
      return response;
    },
  };
  return { provider, seen };
}

const agent: PromptAgentConfig = { kind: 'openai', model: 'gpt-4.1-mini', temperature: 0 };

function scenario(overrides: Partial<ScenarioFile> = {}): ScenarioFile {
  return {
    id: 'spa_booking',
    agent: 'booking',
    tags: [],
    metadata_only: false,
    user: { opening: 'Habari! Nataka massage Jumamosi.', script: ['Saa nne asubuhi tafadhali.'] },
    tools: {
      check_availability: { returns: { slots: ['10:00', '14:00'] } },
      create_booking: { error: 'calendar offline' },
    },
    expect: [],
    ...overrides,
  };
}

describe('runPromptConversation', () => {
  it('sends each scripted user turn with the history and answers tool calls from the mocks', async () => {
    const { provider, seen } = scriptedProvider([
      { tool_calls: [{ id: 'c1', name: 'check_availability', args: { day: 'saturday' } }] },
      { content: 'Tuna nafasi saa 4:00 au saa 8:00 mchana.' },
      { tool_calls: [{ id: 'c2', name: 'create_booking', args: { slot: '10:00' } }] },
      { content: 'Samahani, mfumo wa kalenda haupatikani kwa sasa.' },
    ]);
    const outcome = await runPromptConversation({
      scenario: scenario(),
      agent,
      systemPrompt: 'You are a booking assistant.',
      tools: [{ name: 'check_availability', parameters: { type: 'object' } }],
      provider,
    });

    expect(outcome.error).toBeUndefined();
    expect(outcome.transcript.ended_by).toBe('script');
    expect(outcome.transcript.turns.map((turn) => `${turn.turn}:${turn.role}`)).toEqual([
      '1:user', '1:assistant', '1:tool', '1:assistant', '2:user', '2:assistant', '2:tool', '2:assistant',
    ]);
    const [, , availability, , , , booking] = outcome.transcript.turns;
    expect(availability).toMatchObject({ tool_name: 'check_availability', tool_mocked: true, content: '{"slots":["10:00","14:00"]}' });
    expect(booking).toMatchObject({ tool_name: 'create_booking', content: '{"error":"calendar offline"}' });

    // The second call of turn 1 carries the tool result, linked to the call id.
    expect(seen[1]!.request.messages.at(-1)).toEqual({
      role: 'tool', tool_call_id: 'c1', name: 'check_availability', content: '{"slots":["10:00","14:00"]}',
    });
    expect(seen[1]!.request.system).toBe('You are a booking assistant.');
    expect(seen[1]!.request.temperature).toBe(0);
    expect(seen.map((call) => call.context.turn)).toEqual([1, 1, 2, 2]);
    expect(seen.every((call) => call.context.role === 'agent' && call.context.scenario_id === 'spa_booking')).toBe(true);
    expect(outcome.transcript.turns[1]!.latency_ms).toBe(42);
  });

  it('answers an unmocked tool with an error the agent sees, and marks it unmocked', async () => {
    const { provider, seen } = scriptedProvider([
      { tool_calls: [{ id: 'x', name: 'refund_payment', args: {} }] },
      { content: 'I cannot refund right now.' },
      { content: 'Anything else?' },
    ]);
    const outcome = await runPromptConversation({ scenario: scenario(), agent, systemPrompt: undefined, tools: [], provider });
    const toolTurn = outcome.transcript.turns.find((turn) => turn.role === 'tool');
    expect(toolTurn).toMatchObject({ tool_name: 'refund_payment', tool_mocked: false });
    expect(toolTurn!.content).toContain('not available in this test');
    expect(seen[0]!.request.system).toBeUndefined();
  });

  it('stops an agent that never stops calling tools', async () => {
    const loop = Array.from({ length: 10 }, () => ({ tool_calls: [{ id: 'l', name: 'check_availability', args: {} }] }));
    const { provider } = scriptedProvider(loop);
    const outcome = await runPromptConversation({
      scenario: scenario(),
      agent: { ...agent, max_tool_rounds: 3 },
      systemPrompt: undefined,
      tools: [],
      provider,
    });
    expect(outcome.transcript.ended_by).toBe('error');
    expect(String((outcome.error as Error).message)).toMatch(/3 rounds in turn 1/);
  });

  it('keeps the transcript so far when a call fails mid-conversation', async () => {
    const { provider } = scriptedProvider([{ content: 'Karibu!' }, new Error('provider down')]);
    const outcome = await runPromptConversation({ scenario: scenario(), agent, systemPrompt: undefined, tools: [], provider });
    expect((outcome.error as Error).message).toBe('provider down');
    expect(outcome.transcript.turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('stops before the next call once the run is aborted', async () => {
    const controller = new AbortController();
    const { provider, seen } = scriptedProvider([{ content: 'one' }, { content: 'two' }]);
    const outcome = await runPromptConversation({
      scenario: scenario(),
      agent,
      systemPrompt: undefined,
      tools: [],
      provider,
      signal: controller.signal,
      onTurn: (turn) => {
        if (turn.role === 'assistant') controller.abort();
      },
    });
    expect(seen).toHaveLength(1);
    expect(outcome.transcript.ended_by).toBe('error');
  });
});
