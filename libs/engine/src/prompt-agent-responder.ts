import type { ChatMessage, CompletionRequest, Provider, ToolDefinition } from '@parley/core';
import type { PromptAgentConfig, ScenarioFile } from '@parley/config';
import type { AgentResponder, CallPricer } from './conversation.js';
import { answerToolCall } from './mocked-tools.js';
import { stateToolOf } from './state-tool.js';

const DEFAULT_MAX_TOOL_ROUNDS = 6;

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
 * the tool rounds run out). With `state_tool`, the agent may report its state with one more tool
 * (see state-tool.ts); the state goes on the assistant message that reported it.
 */
export function promptAgentResponder(input: PromptResponderInput): AgentResponder {
  const { scenario, agent, provider } = input;
  const messages: ChatMessage[] = [];
  const maxToolRounds = agent.max_tool_rounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const stateTool = stateToolOf(agent);
  const tools = stateTool ? [...input.tools, stateTool.definition] : input.tools;
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
          ...(tools.length ? { tools } : {}),
          ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
          ...(agent.max_tokens !== undefined ? { max_tokens: agent.max_tokens } : {}),
          ...(agent.seed !== undefined ? { seed: agent.seed } : {}),
        };
        const response = await provider.complete(request, { role: 'agent', scenario_id: scenario.id, turn }, signal);
        const hasToolCalls = response.tool_calls.length > 0;
        messages.push({ role: 'assistant', content: response.content, ...(hasToolCalls ? { tool_calls: response.tool_calls } : {}) });
        // State reports are bookkeeping, not the agent's work: kept off the transcript's tool calls.
        const reports = stateTool ? response.tool_calls.map((call) => (call.name === stateTool.name ? stateTool.read(call) : undefined)) : [];
        const state = reports.findLast((report) => report !== undefined && 'state' in report);
        const shownCalls = response.tool_calls.filter((_, index) => reports[index] === undefined);
        const cost = input.pricer?.(agent.model, response);
        emit({
          role: 'assistant',
          content: response.content,
          turn,
          ...(shownCalls.length > 0 ? { tool_calls: shownCalls } : {}),
          latency_ms: response.latency_ms,
          usage: response.usage,
          ...(cost !== undefined ? { cost_usd: cost } : {}),
          ...(state !== undefined && 'state' in state ? { state: state.state } : {}),
        });
        if (!hasToolCalls) return;
        if (round + 1 >= maxToolRounds) {
          throw new Error(`agent kept calling tools for ${maxToolRounds} rounds in turn ${turn} without answering (max_tool_rounds)`);
        }
        for (const [callIndex, call] of response.tool_calls.entries()) {
          const toolCallId = call.id ?? `call_${callIndex + 1}`;
          const report = reports[callIndex];
          if (report !== undefined) {
            const content = JSON.stringify('state' in report ? { ok: true } : { error: report.problem });
            messages.push({ role: 'tool', tool_call_id: toolCallId, name: call.name, content });
            continue;
          }
          const answer = answerToolCall(call, scenario);
          messages.push({ role: 'tool', tool_call_id: toolCallId, name: call.name, content: answer.content });
          emit({ role: 'tool', content: answer.content, turn, tool_name: call.name, tool_mocked: answer.mocked });
        }
      }
    },
  };
}
