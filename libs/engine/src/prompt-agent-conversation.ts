import type {
  ChatMessage,
  CompletionRequest,
  Provider,
  ToolDefinition,
  Transcript,
  TranscriptTurn,
} from '@parley/core';
import type { PromptAgentConfig, ScenarioFile } from '@parley/config';
import { answerToolCall } from './mocked-tools.js';
import { scriptedUserTurns } from './user-turns.js';

export const DEFAULT_MAX_TOOL_ROUNDS = 6;

export interface PromptConversationInput {
  scenario: ScenarioFile;
  agent: PromptAgentConfig;
  systemPrompt: string | undefined;
  tools: ToolDefinition[];
  /** Already wrapped for the run's mode (replay, record, live) and metering. */
  provider: Provider;
  signal?: AbortSignal;
  onTurn?: (turn: TranscriptTurn) => void;
}

export interface ConversationOutcome {
  transcript: Transcript;
  /** Set when the conversation could not be completed; the transcript holds what happened until then. */
  error?: unknown;
}

/**
 * Plays a scripted conversation with a prompt-based agent (openai, anthropic, openai-compatible):
 * each user turn is sent with the history; tool calls are answered from the scenario's mocks until
 * the agent answers in text (or the tool rounds run out), then the next user turn follows.
 */
export async function runPromptConversation(input: PromptConversationInput): Promise<ConversationOutcome> {
  const { scenario, agent, provider } = input;
  const turns: TranscriptTurn[] = [];
  const messages: ChatMessage[] = [];
  const maxToolRounds = agent.max_tool_rounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const emit = (turn: TranscriptTurn): void => {
    turns.push(turn);
    input.onTurn?.(turn);
  };

  const userTurns = scriptedUserTurns(scenario);
  try {
    for (const [index, text] of userTurns.entries()) {
      const turnNumber = index + 1;
      messages.push({ role: 'user', content: text });
      emit({ role: 'user', content: text, turn: turnNumber });

      for (let round = 0; ; round += 1) {
        input.signal?.throwIfAborted();
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
        const response = await provider.complete(request, { role: 'agent', scenario_id: scenario.id, turn: turnNumber }, input.signal);
        const hasToolCalls = response.tool_calls.length > 0;
        messages.push({
          role: 'assistant',
          content: response.content,
          ...(hasToolCalls ? { tool_calls: response.tool_calls } : {}),
        });
        emit({
          role: 'assistant',
          content: response.content,
          turn: turnNumber,
          ...(hasToolCalls ? { tool_calls: response.tool_calls } : {}),
          latency_ms: response.latency_ms,
          usage: response.usage,
        });
        if (!hasToolCalls) break;
        if (round + 1 >= maxToolRounds) {
          throw new Error(`agent kept calling tools for ${maxToolRounds} rounds in turn ${turnNumber} without answering (max_tool_rounds)`);
        }
        for (const [callIndex, call] of response.tool_calls.entries()) {
          const answer = answerToolCall(call, scenario);
          messages.push({ role: 'tool', tool_call_id: call.id ?? `call_${callIndex + 1}`, name: call.name, content: answer.content });
          emit({ role: 'tool', content: answer.content, turn: turnNumber, tool_name: call.name, tool_mocked: answer.mocked });
        }
      }
    }
  } catch (error) {
    return { transcript: { turns, ended_by: 'error' }, error };
  }
  return { transcript: { turns, ended_by: 'script' } };
}
