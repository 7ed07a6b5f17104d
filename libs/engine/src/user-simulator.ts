import type { ChatMessage, CompletionRequest, CompletionResponse, Provider, ProviderKind, ToolDefinition, TranscriptTurn } from '@parley/core';
import { ProviderError } from '@parley/providers';

/** `simulator:` of parley.yaml: the model that plays the user. */
export interface SimulatorSettings {
  provider: ProviderKind;
  model: string;
  temperature?: number;
  seed?: number;
  max_tokens?: number;
}

/** `user.simulate` of a scenario. */
export interface SimulatedUser {
  persona: string;
  goal: string;
  /** ISO 639 code of the scenario's language, when it has one. */
  language?: string;
}

type SimulatorEnd = 'goal_reached' | 'goal_unreachable';

/** The simulator's move: the next user message, or the end of the conversation and why. */
export type SimulatorMove =
  | { kind: 'message'; text: string; response: CompletionResponse }
  | { kind: 'end'; reason: SimulatorEnd; explanation?: string; response: CompletionResponse };

/** The structured signal through which the simulator ends a conversation (never a magic word in its text). */
const END_CONVERSATION_TOOL: ToolDefinition = {
  name: 'end_conversation',
  description:
    'End the conversation. Call it instead of writing a message when your goal has been reached, or when it clearly cannot be reached with this assistant.',
  parameters: {
    type: 'object',
    properties: {
      reason: { type: 'string', enum: ['goal_reached', 'goal_unreachable'] },
      explanation: { type: 'string', description: 'One sentence: what happened.' },
    },
    required: ['reason'],
    additionalProperties: false,
  },
};

const LANGUAGE_NAMES: Record<string, string> = {
  af: 'Afrikaans', am: 'Amharic', ar: 'Arabic', de: 'German', en: 'English', es: 'Spanish', fr: 'French',
  ha: 'Hausa', hi: 'Hindi', ig: 'Igbo', it: 'Italian', ja: 'Japanese', nl: 'Dutch', pt: 'Portuguese',
  rw: 'Kinyarwanda', so: 'Somali', st: 'Sesotho', sw: 'Swahili', tn: 'Setswana', xh: 'isiXhosa',
  yo: 'Yoruba', zh: 'Chinese', zu: 'isiZulu',
};

/** The simulator's instructions: who it plays, what it wants, in which language, and how to stop. */
export function simulatorSystemPrompt(user: SimulatedUser): string {
  const language = user.language ? `${LANGUAGE_NAMES[user.language] ?? user.language} (${user.language})` : undefined;
  return [
    'You are role-playing a human user talking to an AI assistant, to test that assistant. Stay in character.',
    `Who you are: ${user.persona}`,
    `What you want from this conversation: ${user.goal}`,
    language ? `Write every message in ${language}, as this person would.` : 'Write as this person would.',
    'Each time, write only your next message to the assistant: short, natural, one message, no narration, no quotes.',
    `When your goal has been reached, or it clearly cannot be reached, do not write a message: call the ${END_CONVERSATION_TOOL.name} tool with reason "goal_reached" or "goal_unreachable".`,
  ].join('\n');
}

const OPENING_CUE = '(The assistant is waiting for your first message.)';

/**
 * The conversation from the simulator's side: its own earlier messages are `assistant`, the
 * agent's replies are `user`; tool traffic is left out (a real user does not see it) and
 * neighbouring messages of one side are joined, so every provider accepts the alternation.
 */
export function simulatorMessages(turns: readonly TranscriptTurn[]): ChatMessage[] {
  const messages: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (const turn of turns) {
    if (turn.role === 'tool' || turn.content.trim() === '') continue;
    const role = turn.role === 'user' ? 'assistant' : 'user';
    const previous = messages.at(-1);
    if (previous?.role === role) previous.content = `${previous.content}\n\n${turn.content}`;
    else messages.push({ role, content: turn.content });
  }
  if (messages[0]?.role !== 'user') messages.unshift({ role: 'user', content: OPENING_CUE });
  return messages;
}

/** The simulator's request for its next move; identical inputs give identical requests (recording keys). */
function simulatorRequest(settings: SimulatorSettings, user: SimulatedUser, turns: readonly TranscriptTurn[]): CompletionRequest {
  return {
    provider: settings.provider,
    model: settings.model,
    system: simulatorSystemPrompt(user),
    messages: simulatorMessages(turns),
    tools: [END_CONVERSATION_TOOL],
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.max_tokens !== undefined ? { max_tokens: settings.max_tokens } : {}),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
  };
}

/**
 * Asks the simulator for its next move through the run's provider stack (role `simulator`, so it
 * is retried, rate-limited, metered, recorded and replayed like every call). A call of
 * `end_conversation` ends the conversation, whatever text came with it; an answer with neither a
 * message nor that call is an error rather than a silent end.
 */
export async function nextSimulatorMove(input: {
  settings: SimulatorSettings;
  user: SimulatedUser;
  turns: readonly TranscriptTurn[];
  provider: Provider;
  scenarioId: string;
  turn: number;
  signal?: AbortSignal;
}): Promise<SimulatorMove> {
  const context = { role: 'simulator' as const, scenario_id: input.scenarioId, turn: input.turn };
  const response = await input.provider.complete(simulatorRequest(input.settings, input.user, input.turns), context, input.signal);
  const end = response.tool_calls.find((call) => call.name === END_CONVERSATION_TOOL.name);
  if (end) {
    const reason = end.args.reason;
    if (reason !== 'goal_reached' && reason !== 'goal_unreachable') {
      throw new ProviderError('malformed_response', `the simulator called ${END_CONVERSATION_TOOL.name} with reason ${JSON.stringify(reason)}, not goal_reached or goal_unreachable`, { context });
    }
    const explanation = typeof end.args.explanation === 'string' ? end.args.explanation : undefined;
    return { kind: 'end', reason, ...(explanation !== undefined ? { explanation } : {}), response };
  }
  const text = response.content.trim();
  if (text === '') {
    throw new ProviderError('malformed_response', `the simulator (${input.settings.model}) answered with neither a message nor ${END_CONVERSATION_TOOL.name}`, { context });
  }
  return { kind: 'message', text, response };
}
