import type { ChatMessage, CompletionRequest, Provider, ToolDefinition } from '@parley/core';
import type { PromptAgentConfig, ScenarioFile } from '@parley/config';
import type { AgentResponder, CallPricer } from './conversation.js';
import { answerToolCall } from './mocked-tools.js';

export const DEFAULT_MAX_TOOL_ROUNDS = 6;

export interface PromptResponderInput {
  scenario: ScenarioFile;
  agent: PromptAgentConfig;
  systemPrompt: string | undefined;
  tools: ToolDefinition[];
  /** Already wrapped for the run's mode (replay, record, live), resilience and metering. */
  provider: Provider;
  pricer?: CallPricer;
}

/**
 * A prompt-based agent (openai, openai-responses, anthropic, openai-compatible): each user turn is sent with the
 * history; tool calls are answered from the scenario's mocks until the agent answers in text (or
 * the tool rounds run out).
 */
export function promptAgentResponder(input: PromptResponderInput): AgentResponder {
  const { scenario, agent, provider } = input;
  const messages: ChatMessage[] = [];
  const maxToolRounds = agent.max_tool_rounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  return {
    async respond({ turn, turns }, emit, signal) {
      const last = turns.at(-1);
      messages.push({ role: 'user', content: last?.content ?? '' });
      for (let round = 0; ; round += 1) {
        signal?.throwIfAborted();
        const request: CompletionRequest = {
          provider: agent.kind,
          model: agent.model,
          ...(input.systemPrompt !== undefined ? { system: input.systemPrompt } : {}),
          messages: [...messages],
          ...(input.tools.length ? { tools: input.tools } : {}),
          ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
          ...(agent.max_tokens !== undefined ? { max_tokens: agent.max_tokens } : {}),
          ...(agent.seed !== undefined ? { seed: agent.seed } : {}),
        };
        const response = await provider.complete(request, { role: 'agent', scenario_id: scenario.id, turn }, signal);
        const hasToolCalls = response.tool_calls.length > 0;
        messages.push({ role: 'assistant', content: response.content, ...(hasToolCalls ? { tool_calls: response.tool_calls } : {}) });
        const cost = input.pricer?.(agent.model, response);
        emit({
          role: 'assistant',
          content: response.content,
          turn,
          ...(hasToolCalls ? { tool_calls: response.tool_calls } : {}),
          latency_ms: response.latency_ms,
          usage: response.usage,
          ...(cost !== undefined ? { cost_usd: cost } : {}),
        });
        if (!hasToolCalls) return;
        if (round + 1 >= maxToolRounds) {
          throw new Error(`agent kept calling tools for ${maxToolRounds} rounds in turn ${turn} without answering (max_tool_rounds)`);
        }
        for (const [callIndex, call] of response.tool_calls.entries()) {
          const answer = answerToolCall(call, scenario);
          messages.push({ role: 'tool', tool_call_id: call.id ?? `call_${callIndex + 1}`, name: call.name, content: answer.content });
          emit({ role: 'tool', content: answer.content, turn, tool_name: call.name, tool_mocked: answer.mocked });
        }
      }
    },
  };
}
