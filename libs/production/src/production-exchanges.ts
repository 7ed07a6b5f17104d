import type { TokenUsage, ToolCall } from '@parley/core';
import type { LoggedConversation, LoggedTurn } from './conversation-log.js';

/** One assistant answer as a model call would have returned it. */
export interface ProductionReply {
  content: string;
  tool_calls: ToolCall[];
  /** From the log's timestamps: this message's time minus the previous message's; 0 when unknown. */
  latency_ms: number;
  usage: TokenUsage;
  at?: Date;
}

/** One user turn of a production conversation and what the agent did about it. */
interface ProductionExchange {
  /** The user's messages of this turn, joined (a user often sends two WhatsApp messages before a reply). */
  user: string;
  /**
   * The agent's messages in the shape a prompt agent's loop consumes them: each tool-calling
   * message in order (text written before it joins it), then one final text message.
   */
  replies: ProductionReply[];
  /** Tool results the agent received in this turn, by tool name, in order. */
  toolResults: Array<{ name: string; content: string }>;
}

export interface ProductionExchanges {
  exchanges: ProductionExchange[];
  /** Assistant or tool messages before the first user message (a template the agent opened with): not replayable. */
  droppedBeforeFirstUser: number;
}

/**
 * Splits a logged conversation into user turns. A scripted Parley conversation always starts with
 * the user, so messages before the first user message are counted and left out.
 */
export function productionExchanges(conversation: LoggedConversation): ProductionExchanges {
  const exchanges: ProductionExchange[] = [];
  let dropped = 0;
  let current: { users: string[]; agent: LoggedTurn[] } | undefined;
  const finish = (): void => {
    if (current) exchanges.push(exchangeOf(current.users, current.agent, conversation.turns));
  };
  for (const turn of conversation.turns) {
    if (turn.role === 'user') {
      if (current && current.agent.length === 0) current.users.push(turn.content);
      else {
        finish();
        current = { users: [turn.content], agent: [] };
      }
      continue;
    }
    if (!current) {
      dropped += 1;
      continue;
    }
    current.agent.push(turn);
  }
  finish();
  return { exchanges, droppedBeforeFirstUser: dropped };
}

function exchangeOf(users: string[], agentTurns: LoggedTurn[], all: readonly LoggedTurn[]): ProductionExchange {
  const replies: ProductionReply[] = [];
  const toolResults: Array<{ name: string; content: string }> = [];
  let pendingText: string[] = [];
  let pendingUsage: TokenUsage = { input_tokens: 0, output_tokens: 0 };
  const callNames = new Map<string, string>();
  const unansweredCalls: string[] = [];

  for (const turn of agentTurns) {
    if (turn.role === 'tool') {
      const name = turn.tool_name ?? (turn.tool_call_id !== undefined ? callNames.get(turn.tool_call_id) : undefined) ?? unansweredCalls[0];
      if (name !== undefined) {
        toolResults.push({ name, content: turn.content });
        const position = unansweredCalls.indexOf(name);
        if (position >= 0) unansweredCalls.splice(position, 1);
      }
      continue;
    }
    if (turn.role !== 'assistant') continue;
    const calls = (turn.tool_calls ?? []).map((call, index): ToolCall => ({ id: call.id ?? `call_${index + 1}`, name: call.name, args: call.args }));
    const usage = addUsage(pendingUsage, turn.usage);
    if (calls.length === 0) {
      if (turn.content.trim() !== '') pendingText.push(turn.content);
      pendingUsage = usage;
      continue;
    }
    for (const call of calls) {
      if (call.id !== undefined) callNames.set(call.id, call.name);
      unansweredCalls.push(call.name);
    }
    replies.push(reply([...pendingText, turn.content].filter((text) => text.trim() !== '').join('\n\n'), calls, usage, turn, all));
    pendingText = [];
    pendingUsage = { input_tokens: 0, output_tokens: 0 };
  }
  if (pendingText.length > 0) {
    const last = [...agentTurns].reverse().find((turn) => turn.role === 'assistant' && (turn.tool_calls ?? []).length === 0);
    replies.push(reply(pendingText.join('\n\n'), [], pendingUsage, last, all));
  }
  return { user: users.join('\n'), replies, toolResults };
}

function reply(content: string, toolCalls: ToolCall[], usage: TokenUsage, turn: LoggedTurn | undefined, all: readonly LoggedTurn[]): ProductionReply {
  const at = turn?.timestamp !== undefined ? new Date(turn.timestamp) : undefined;
  return { content, tool_calls: toolCalls, latency_ms: latencyOf(turn, all), usage, ...(at ? { at } : {}) };
}

/** Time between the message before this one and this one, from the log's timestamps. */
function latencyOf(turn: LoggedTurn | undefined, all: readonly LoggedTurn[]): number {
  if (turn?.timestamp === undefined) return 0;
  const index = all.indexOf(turn);
  const previous = index > 0 ? all[index - 1]?.timestamp : undefined;
  if (previous === undefined) return 0;
  return Math.max(0, Date.parse(turn.timestamp) - Date.parse(previous));
}

function addUsage(left: TokenUsage, right: TokenUsage | undefined): TokenUsage {
  return {
    input_tokens: left.input_tokens + (right?.input_tokens ?? 0),
    output_tokens: left.output_tokens + (right?.output_tokens ?? 0),
  };
}
