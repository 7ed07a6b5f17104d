import type { Provider, ToolDefinition, TranscriptTurn } from '@parley/core';
import type { PromptAgentConfig, ScenarioFile } from '@parley/config';
import { runConversation, type ConversationOutcome } from './conversation.js';
import { promptAgentResponder } from './prompt-agent-responder.js';
import { scriptedUserTurns } from './user-turns.js';


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

/** A scripted conversation with a prompt-based agent (the scenario's opening and script only). */
export async function runPromptConversation(input: PromptConversationInput): Promise<ConversationOutcome> {
  return runConversation({
    scenarioId: input.scenario.id,
    scriptedTurns: scriptedUserTurns(input.scenario),
    responder: promptAgentResponder(input),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.onTurn ? { onTurn: input.onTurn } : {}),
  });
}
