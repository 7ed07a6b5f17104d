import type { ChatMessage, Provider } from '@parley/core';
import type { AgentResponder } from './conversation.js';

/**
 * A service agent (http, command, module) answering through its provider (see serviceProvider):
 * the request carries the conversation's text messages, and the reply comes back as one
 * assistant message with the tool calls the agent says it made and the state it reports.
 */
export function serviceAgentResponder(input: { agentName: string; scenarioId: string; provider: Provider }): AgentResponder {
  return {
    async respond({ turn, turns }, emit, signal) {
      const messages: ChatMessage[] = turns.flatMap((item) =>
        item.role === 'user' || item.role === 'assistant' ? [{ role: item.role, content: item.content }] : [],
      );
      const response = await input.provider.complete(
        { provider: 'service', model: input.agentName, messages },
        { role: 'agent', scenario_id: input.scenarioId, turn },
        signal,
      );
      emit({
        role: 'assistant',
        content: response.content,
        turn,
        ...(response.tool_calls.length ? { tool_calls: response.tool_calls } : {}),
        latency_ms: response.latency_ms,
        ...(response.state !== undefined ? { state: response.state } : {}),
      });
    },
  };
}
