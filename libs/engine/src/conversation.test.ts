import { describe, expect, it } from 'vitest';
import type { CallContext, CompletionRequest, CompletionResponse, Provider, ToolCall } from '@parley/core';
import { runConversation, type AgentResponder } from './conversation.js';
import { simulatorMessages, simulatorSystemPrompt } from './user-simulator.js';

function response(content: string, tool_calls: ToolCall[] = []): CompletionResponse {
  return { content, tool_calls, usage: { input_tokens: 30, output_tokens: 10 }, finish_reason: 'stop', model: 'sim', latency_ms: 7 };
}

/** A simulator model answering from a list, keeping what it was asked. */
function simulatorModel(answers: CompletionResponse[]) {
  const seen: Array<{ request: CompletionRequest; context: CallContext }> = [];
  const provider: Provider = {
    async complete(request, context) {
      seen.push({ request: structuredClone(request), context });
      const next = answers.shift();
      if (!next) throw new Error('simulator ran out of answers');
      return next;
    },
  };
  return { provider, seen };
}

/** An agent that echoes each user message. */
const echoAgent: AgentResponder = {
  async respond({ turn, turns }, emit) {
    emit({ role: 'assistant', content: `echo: ${turns.at(-1)!.content}`, turn });
  },
};

const settings = { provider: 'openai' as const, model: 'sim-model', temperature: 0.7, seed: 3 };
const user = { persona: 'Amina, 34, prefers Swahili', goal: 'a Saturday massage', language: 'sw' };

describe('runConversation with the user simulator', () => {
  it('plays the script, then the simulator until it ends the conversation with the structured signal', async () => {
    const { provider, seen } = simulatorModel([
      response('Saa nne inafaa.'),
      response('Asante, nimeridhika. [goal reached]', [{ id: 't1', name: 'end_conversation', args: { reason: 'goal_reached', explanation: 'Booked.' } }]),
    ]);
    const outcome = await runConversation({
      scenarioId: 'sim',
      scriptedTurns: ['Habari!'],
      simulation: { settings, user, maxTurns: 8, provider },
      responder: echoAgent,
      pricer: () => 0.001,
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.transcript.ended_by).toBe('goal_reached');
    expect(outcome.transcript.end_explanation).toBe('Booked.');
    expect(outcome.transcript.turns.map((turn) => [turn.turn, turn.role, turn.content, turn.simulated ?? false])).toEqual([
      [1, 'user', 'Habari!', false],
      [1, 'assistant', 'echo: Habari!', false],
      [2, 'user', 'Saa nne inafaa.', true],
      [2, 'assistant', 'echo: Saa nne inafaa.', false],
    ]);
    expect(outcome.transcript.turns[2]).toMatchObject({ usage: { input_tokens: 30, output_tokens: 10 }, latency_ms: 7, cost_usd: 0.001 });
    // The simulator sees the conversation from the user's side, with its own persona, goal and language.
    expect(seen.map((call) => call.context)).toEqual([
      { role: 'simulator', scenario_id: 'sim', turn: 2 },
      { role: 'simulator', scenario_id: 'sim', turn: 3 },
    ]);
    expect(seen[0]!.request).toMatchObject({ provider: 'openai', model: 'sim-model', temperature: 0.7, seed: 3 });
    expect(seen[0]!.request.system).toContain('Amina, 34');
    expect(seen[0]!.request.system).toContain('Swahili (sw)');
    expect(seen[0]!.request.tools?.map((tool) => tool.name)).toEqual(['end_conversation']);
    expect(seen[1]!.request.messages).toEqual([
      { role: 'user', content: '(The assistant is waiting for your first message.)' },
      { role: 'assistant', content: 'Habari!' },
      { role: 'user', content: 'echo: Habari!' },
      { role: 'assistant', content: 'Saa nne inafaa.' },
      { role: 'user', content: 'echo: Saa nne inafaa.' },
    ]);
  });

  it('never ends on a magic word in the text alone, and stops at max_turns', async () => {
    const { provider } = simulatorModel([response('Goal reached. END CONVERSATION.'), response('Thanks!')]);
    const outcome = await runConversation({ scenarioId: 'cap', scriptedTurns: [], simulation: { settings, user, maxTurns: 2, provider }, responder: echoAgent });
    expect(outcome.transcript.ended_by).toBe('max_turns');
    expect(outcome.transcript.turns.filter((turn) => turn.role === 'user')).toHaveLength(2);
  });

  it('records goal_unreachable, and refuses an empty move or an unknown reason', async () => {
    const unreachable = simulatorModel([response('', [{ name: 'end_conversation', args: { reason: 'goal_unreachable' } }])]);
    const gaveUp = await runConversation({ scenarioId: 'u', scriptedTurns: ['Hi'], simulation: { settings, user, maxTurns: 5, provider: unreachable.provider }, responder: echoAgent });
    expect(gaveUp.transcript.ended_by).toBe('goal_unreachable');

    const empty = simulatorModel([response('  ')]);
    const silent = await runConversation({ scenarioId: 'e', scriptedTurns: [], simulation: { settings, user, maxTurns: 5, provider: empty.provider }, responder: echoAgent });
    expect(silent.transcript.ended_by).toBe('error');
    expect(String(silent.error)).toContain('neither a message nor end_conversation');

    const odd = simulatorModel([response('', [{ name: 'end_conversation', args: { reason: 'bored' } }])]);
    const wrong = await runConversation({ scenarioId: 'o', scriptedTurns: [], simulation: { settings, user, maxTurns: 5, provider: odd.provider }, responder: echoAgent });
    expect(String(wrong.error)).toContain('reason "bored"');
  });
});

describe('simulator views', () => {
  it('drops tool traffic and joins neighbouring messages of one side', () => {
    expect(
      simulatorMessages([
        { role: 'user', content: 'Hi', turn: 1 },
        { role: 'assistant', content: '', turn: 1, tool_calls: [{ name: 'x', args: {} }] },
        { role: 'tool', content: '{}', turn: 1, tool_name: 'x' },
        { role: 'assistant', content: 'One moment.', turn: 1 },
        { role: 'assistant', content: 'Done.', turn: 1 },
      ]),
    ).toEqual([
      { role: 'user', content: '(The assistant is waiting for your first message.)' },
      { role: 'assistant', content: 'Hi' },
      { role: 'user', content: 'One moment.\n\nDone.' },
    ]);
    expect(simulatorSystemPrompt({ persona: 'p', goal: 'g' })).not.toContain('Write every message in');
  });
});
