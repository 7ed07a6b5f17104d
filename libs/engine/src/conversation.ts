import type { CompletionResponse, Provider, Transcript, TranscriptTurn } from '@parley/core';
import { nextSimulatorMove, type SimulatedUser, type SimulatorSettings } from './user-simulator.js';

/** The system under test, answering one user turn at a time. */
export interface AgentResponder {
  /**
   * Answers the last user message of `turns` (user turn number `turn`), emitting each assistant or
   * tool message as it happens. Throws when the turn cannot be completed.
   */
  respond(input: { turn: number; turns: readonly TranscriptTurn[] }, emit: (turn: TranscriptTurn) => void, signal?: AbortSignal): Promise<void>;
}

/** USD of one call from its model and usage (null when the price is unknown). */
export type CallPricer = (model: string, response: CompletionResponse) => number | null;

export interface ConversationInput {
  scenarioId: string;
  /** Fixed user turns in order: the opening, then the script. */
  scriptedTurns: readonly string[];
  /** After the script, an LLM plays the user until it ends the conversation or `maxTurns` user turns were had. */
  simulation?: { settings: SimulatorSettings; user: SimulatedUser; maxTurns: number; provider: Provider };
  responder: AgentResponder;
  signal?: AbortSignal;
  onTurn?: (turn: TranscriptTurn) => void;
  pricer?: CallPricer;
}

export interface ConversationOutcome {
  transcript: Transcript;
  /** Set when the conversation could not be completed; the transcript holds what happened until then. */
  error?: unknown;
}

/**
 * Plays one conversation: the scripted user turns, then (with `simulate`) the simulator's turns,
 * each answered by the agent. The transcript says why it ended: the script ran out, the simulator
 * reached or gave up its goal, `max_turns` was reached, or an error stopped it.
 */
export async function runConversation(input: ConversationInput): Promise<ConversationOutcome> {
  const turns: TranscriptTurn[] = [];
  const emit = (turn: TranscriptTurn): void => {
    turns.push(turn);
    input.onTurn?.(turn);
  };
  let turnNumber = 0;
  const answer = async (text: string, extra: Partial<TranscriptTurn> = {}): Promise<void> => {
    turnNumber += 1;
    emit({ role: 'user', content: text, turn: turnNumber, ...extra });
    input.signal?.throwIfAborted();
    await input.responder.respond({ turn: turnNumber, turns }, emit, input.signal);
  };

  try {
    for (const text of input.scriptedTurns) {
      input.signal?.throwIfAborted();
      await answer(text);
    }
    const simulation = input.simulation;
    if (!simulation) return { transcript: { turns, ended_by: 'script' } };
    while (turnNumber < simulation.maxTurns) {
      input.signal?.throwIfAborted();
      const move = await nextSimulatorMove({
        settings: simulation.settings,
        user: simulation.user,
        turns,
        provider: simulation.provider,
        scenarioId: input.scenarioId,
        turn: turnNumber + 1,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      if (move.kind === 'end') {
        return {
          transcript: { turns, ended_by: move.reason, ...(move.explanation !== undefined ? { end_explanation: move.explanation } : {}) },
        };
      }
      const cost = input.pricer?.(simulation.settings.model, move.response);
      await answer(move.text, {
        simulated: true,
        latency_ms: move.response.latency_ms,
        usage: move.response.usage,
        ...(cost !== undefined ? { cost_usd: cost } : {}),
      });
    }
    return { transcript: { turns, ended_by: 'max_turns' } };
  } catch (error) {
    return { transcript: { turns, ended_by: 'error' }, error };
  }
}
