import type { Transcript, TranscriptTurn } from '@parley/core';
import type { LoggedConversation } from '@parley/production';

/**
 * A logged production conversation as the transcript judges read: a user message after the agent
 * spoke starts the next turn; tool results get their tool's name through `tool_call_id`.
 */
export function productionTranscript(conversation: LoggedConversation): Transcript {
  const toolNames = new Map<string, string>();
  const turns: TranscriptTurn[] = [];
  let turn = 0;
  let agentSpoke = true;
  for (const logged of conversation.turns) {
    if (logged.role === 'user') {
      if (agentSpoke || turn === 0) turn += 1;
      agentSpoke = false;
      turns.push({ role: 'user', content: logged.content, turn });
      continue;
    }
    agentSpoke = true;
    const current = Math.max(turn, 1);
    if (logged.role === 'assistant') {
      const calls = (logged.tool_calls ?? []).map((call) => {
        if (call.id !== undefined) toolNames.set(call.id, call.name);
        return { ...(call.id !== undefined ? { id: call.id } : {}), name: call.name, args: call.args };
      });
      turns.push({
        role: 'assistant',
        content: logged.content,
        turn: current,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        ...(logged.usage ? { usage: logged.usage } : {}),
      });
      continue;
    }
    const name = logged.tool_name ?? (logged.tool_call_id !== undefined ? toolNames.get(logged.tool_call_id) : undefined);
    turns.push({ role: 'tool', content: logged.content, turn: current, ...(name !== undefined ? { tool_name: name } : {}) });
  }
  return { turns, ended_by: 'script' };
}
