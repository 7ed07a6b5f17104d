import type { Clock, CompletionResponse, Provider } from '@parley/core';
import { isPromptAgent, type LoadedSuite, type RecordingEntry, type ScenarioFile } from '@parley/config';
import { promptAgentResponder, runConversation, scriptedUserTurns, serviceAgentResponder, type AgentResponder } from '@parley/engine';
import { createRecorder, recordingProvider } from '@parley/providers';
import type { ProductionReply } from './production-exchanges.js';

export interface PromotedRecordingInput {
  suite: Pick<LoadedSuite, 'config' | 'agentPrompts' | 'agentTools'>;
  /** The promoted scenario exactly as it will be written (its mocks shape the requests). */
  scenario: ScenarioFile;
  /** The (masked) replies of each user turn, index 0 for turn 1. */
  replies: readonly (readonly ProductionReply[])[];
  /** `recorded_at` of replies whose log line had no timestamp. */
  now: Date;
}

export type PromotedRecording = { ok: true; entries: RecordingEntry[] } | { ok: false; problem: string };

/**
 * The recording that lets a promoted scenario replay offline: the conversation is played through
 * the real engine (the same responder a run uses, so the requests and their keys are exactly the
 * ones a replay will make), with a provider that answers each call with the agent's logged reply
 * of that turn, and a recorder that writes what it answered. The recorded usage and latency are
 * the log's; a turn with fewer logged replies than the agent's loop asks for gets empty answers.
 */
export async function buildPromotedRecording(input: PromotedRecordingInput): Promise<PromotedRecording> {
  const { suite, scenario } = input;
  const agent = suite.config.agents[scenario.agent];
  if (agent === undefined) return { ok: false, problem: `the suite has no agent "${scenario.agent}"` };

  let answeredAt = input.now;
  const clock: Clock = { now: () => answeredAt, monotonicMs: () => 0 };
  const recorder = createRecorder(clock);
  const prompt = isPromptAgent(agent);
  const queues = input.replies.map((replies) => (prompt ? [...replies] : [mergeForService(replies)]));
  const model = prompt ? agent.model : scenario.agent;
  const loggedReplies: Provider = {
    async complete(_request, context): Promise<CompletionResponse> {
      const reply = queues[context.turn - 1]?.shift();
      answeredAt = reply?.at ?? input.now;
      return {
        content: reply?.content ?? '',
        tool_calls: reply?.tool_calls ?? [],
        usage: reply?.usage ?? { input_tokens: 0, output_tokens: 0 },
        finish_reason: (reply?.tool_calls.length ?? 0) > 0 ? 'tool_calls' : 'stop',
        model,
        latency_ms: reply?.latency_ms ?? 0,
      };
    },
  };
  const provider = recordingProvider(loggedReplies, recorder);
  const responder: AgentResponder = prompt
    ? promptAgentResponder({
        scenario,
        agent,
        systemPrompt: suite.agentPrompts[scenario.agent]?.text,
        tools: suite.agentTools[scenario.agent] ?? [],
        provider,
      })
    : serviceAgentResponder({ agentName: scenario.agent, scenarioId: scenario.id, provider });

  const outcome = await runConversation({ scenarioId: scenario.id, scriptedTurns: scriptedUserTurns(scenario), responder });
  if (outcome.error !== undefined) {
    return { ok: false, problem: outcome.error instanceof Error ? outcome.error.message : String(outcome.error) };
  }
  const left = queues.reduce((sum, queue) => sum + queue.length, 0);
  if (left > 0) return { ok: false, problem: `${left} logged replies were never asked for by the agent's loop` };
  return { ok: true, entries: recorder.entries };
}

/** A service agent answers a turn once: its logged messages of the turn become one reply. */
function mergeForService(replies: readonly ProductionReply[]): ProductionReply {
  const last = replies.at(-1);
  return {
    content: replies.map((reply) => reply.content).filter((text) => text.trim() !== '').join('\n\n'),
    tool_calls: replies.flatMap((reply) => reply.tool_calls),
    latency_ms: replies.reduce((sum, reply) => sum + reply.latency_ms, 0),
    usage: replies.reduce(
      (sum, reply) => ({ input_tokens: sum.input_tokens + reply.usage.input_tokens, output_tokens: sum.output_tokens + reply.usage.output_tokens }),
      { input_tokens: 0, output_tokens: 0 },
    ),
    ...(last?.at ? { at: last.at } : {}),
  };
}
