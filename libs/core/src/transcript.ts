import type { TokenUsage, ToolCall } from './completion.js';

/** One message of a conversation as the run saw it. */
export interface TranscriptTurn {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** 1-based user turn this message belongs to. */
  turn: number;
  /** Tool calls the assistant made in this message. */
  tool_calls?: ToolCall[];
  /** For role `tool`: which tool answered, and whether the scenario mocked it. */
  tool_name?: string;
  tool_mocked?: boolean;
  latency_ms?: number;
  usage?: TokenUsage;
  /**
   * USD of the call that produced this message (agent call for assistant messages, simulator
   * call for simulated user messages); null when the model has no known price.
   */
  cost_usd?: number | null;
  /** True for a user message the LLM user simulator wrote (not a scripted turn). */
  simulated?: boolean;
  /** The agent's reported state after this message (service agents may report it). */
  state?: string;
}

export interface Transcript {
  turns: TranscriptTurn[];
  /** Why the conversation ended: script finished, max_turns reached, simulator goal reached, error. */
  ended_by: 'script' | 'max_turns' | 'goal_reached' | 'goal_unreachable' | 'error';
  /** The simulator's one-sentence account when it ended the conversation itself. */
  end_explanation?: string;
}

/** All tool calls the assistant made, in order. */
export function toolCallsOf(transcript: Transcript): ToolCall[] {
  return transcript.turns.flatMap((turn) => (turn.role === 'assistant' ? (turn.tool_calls ?? []) : []));
}

