/**
 * The typed contract of a `module` agent, for agents written in TypeScript or checked JavaScript:
 *
 * ```ts
 * import { defineAgent } from 'parley-eval';
 * export const respond = defineAgent(async (turn) => ({ reply: `You said: ${turn.message}` }));
 * ```
 *
 * Parley imports the module and calls its `respond` export once per user turn.
 */

/** One user turn as a module agent receives it: the default wire body. */
export interface AgentTurn {
  /** Stable for the whole conversation; use it to keep per-conversation state. */
  conversation_id: string;
  /** The conversation's test tenant (`test_tenant_<scenario id>_<8 hex>`): isolate its data by it. */
  tenant: string;
  scenario_id: string;
  /** The number of this user turn in the conversation. */
  turn: number;
  /** The user's message for this turn. */
  message: string;
  /** The conversation before this turn, oldest first. */
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
}

/**
 * What else a module agent is given: the run's abort signal (Ctrl-C, timeouts).
 * @public part of the parley-eval package's API (apps/cli/src/index.ts)
 */
export interface AgentContext {
  signal: AbortSignal | undefined;
}

/**
 * A tool call the agent made during the turn, checked by `tool_correctness`.
 * @public part of the parley-eval package's API (apps/cli/src/index.ts)
 */
export interface AgentToolCall {
  name: string;
  args?: Record<string, unknown>;
}

/**
 * The agent's answer: the reply text, or the reply with its tool calls and a state for `state_path`.
 * @public part of the parley-eval package's API (apps/cli/src/index.ts)
 */
export type AgentAnswer = string | { reply: string; tool_calls?: AgentToolCall[]; state?: string };

export type AgentRespond = (turn: AgentTurn, context: AgentContext) => AgentAnswer | Promise<AgentAnswer>;

/** Returns `respond` unchanged: it only gives a module agent's function its types. */
export function defineAgent(respond: AgentRespond): AgentRespond {
  return respond;
}
