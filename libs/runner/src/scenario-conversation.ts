import { isAbsolute, relative } from 'node:path';
import type { CallRecord, Recorder } from '@parley/providers';
import {
  costOfCall,
  createRecorder,
  createReplayProvider,
  isProviderError,
  maskedRequests,
  meteredProvider,
  providerServer,
  readRecording,
  recordingPath,
  recordingProvider,
  writeRecordingAsync,
} from '@parley/providers';
import type { Clock, Provider, ProviderKind, RunMode, Transcript, TranscriptTurn } from '@parley/core';
import { isConfigError } from '@parley/core';
import { isPromptAgent, type AgentConfig, type LoadedScenario, type LoadedSuite, type PromptAgentConfig } from '@parley/config';
import {
  commandAgent,
  httpAgent,
  interpolateEnv,
  moduleAgent,
  promptAgentResponder,
  RESPONSE_MAPPING_FIELDS,
  runConversation,
  scriptedUserTurns,
  serviceAgentResponder,
  serviceProvider,
  WireFormatError,
  type AgentResponder,
  type AgentTransport,
  type CallPricer,
  type ConversationOutcome,
  type ResponseMapping,
} from '@parley/engine';
import type { ScenarioCassette } from './cassette.js';
import type { RecordingKeeper } from './rerecording.js';
import { runHook, sessionEnv, type HookOutcome } from './isolation-hooks.js';
import { shellWord } from './shell-word.js';
import { liveModelProvider, meteredInto, type ModelCallContext } from './model-provider.js';
import { recordingsDir, resolveInSuite } from './suite-paths.js';
import type { ScenarioSession } from './session.js';

/** What one scenario's conversation needs from the run (the live-call parts: see ModelCallContext). */
export interface ConversationContext extends ModelCallContext {
  mode: RunMode;
  clock: Clock;
  signal?: AbortSignal;
  onTurn?: (turn: TranscriptTurn) => void;
  /** Under `--repeat N`: the recording the scenario's attempts share (see cassette.ts). */
  cassette?: ScenarioCassette;
  /**
   * The suite's secrets redactor. Recordings are written masked, so a replay masks each request
   * the same way before it is keyed (`maskedRequests`): a secret in a prompt, turn or tool mock replays.
   */
  secrets?: (text: string) => string;
  /**
   * Under `--repeat N`: which attempt this is, from 1. A live attempt must never be answered from
   * a cache filled by an earlier attempt of the same run (the judge cache keys on it).
   */
  attempt?: number;
  /**
   * Live and record runs: writes the scenario's recording (record mode: the suite's, and both: a
   * copy beside the run history for triage, see rerecording.ts). Without it record mode writes the
   * suite's recording directly and live mode writes nothing.
   */
  recordingKeeper?: RecordingKeeper;
  /** How the person runs Parley (`parley` or `npx parley`), for the record command of a replay miss; `parley` when left out. */
  parleyCommand?: () => string;
}

/** Writes what a live or record run recorded of a scenario (see `ConversationContext.recordingKeeper`). */
export async function saveRecording(context: ConversationContext, recordingFile: string, scenarioId: string, recorder: Recorder): Promise<void> {
  if (context.recordingKeeper) await context.recordingKeeper.save(scenarioId, recorder.entries);
  else if (context.mode === 'record') await writeRecordingAsync(recordingFile, recorder.entries);
}

export type ScenarioConversation =
  | { kind: 'outcome'; outcome: ConversationOutcome & { error?: undefined } }
  | { kind: 'error'; error: { kind: string; message: string; details?: string }; transcript?: Transcript };

const DEFAULT_AGENT_TIMEOUT_MS = 60_000;

/**
 * One scenario's conversation with its isolation: `setup` before the first turn, the conversation
 * (prompt or service agent, scripted and/or simulated user), then `teardown` — always, also after an
 * error, a timeout or Ctrl-C. In replay nothing outside Parley is touched: no hook runs and no
 * agent is called. Recordings are written only for completed conversations.
 */
export async function playScenario(
  scenario: LoadedScenario,
  session: ScenarioSession,
  context: ConversationContext,
  calls: CallRecord[],
): Promise<ScenarioConversation> {
  const { suite } = context;
  const data = scenario.data;
  const agent = suite.config.agents[data.agent];
  if (!agent) return failure('config', `unknown agent "${data.agent}"`);
  if (data.user.simulate && !suite.config.simulator) {
    return failure('config', `scenario ${data.id} has user.simulate but parley.yaml has no simulator: (provider and model of the LLM that plays the user)`);
  }

  const recordingFile = recordingPath(recordingsDir(suite), data.id);
  // A live run records too: its recording is kept for triage (rerecording.ts), never in the suite.
  const recorder = context.mode !== 'replay' ? (context.cassette?.recorder(context.clock) ?? createRecorder(context.clock)) : undefined;
  let replay: Provider | undefined;
  try {
    const recording = () => ({ entries: readRecording(recordingFile), file: relative(suite.dir, recordingFile) || recordingFile, recordCommand: recordCommandFor(suite, context.parleyCommand) });
    if (context.mode === 'replay' && context.cassette) replay = context.cassette.replay(recording);
    else if (context.mode === 'replay') {
      const { entries, file, recordCommand } = recording();
      replay = createReplayProvider(entries, file, recordCommand);
    }
    if (replay && context.secrets) replay = maskedRequests(replay, context.secrets);
  } catch (error) {
    if (isConfigError(error)) throw error; // a damaged recording is a bad file: exit 2 with file:line
    return failure('recording', (error as Error).message);
  }
  const pricer: CallPricer = (model, response) => costOfCall(model, response.usage, suite.config.pricing);
  const settings = suite.config.settings;
  const modelProvider = (kind: ProviderKind, baseUrl: string | undefined, apiKeyEnv: string | undefined): Provider =>
    replay
      ? meteredInto(replay, calls, context) // a replayed call reaches no server: its spans name none
      : meteredInto(liveModelProvider(context, { kind, baseUrl, apiKeyEnv }, recorder), calls, context, providerServer(kind, baseUrl, context.env));

  const hookEnv = { ...context.env, ...sessionEnv(session) };
  const isolation = context.mode === 'replay' ? undefined : suite.config.isolation;
  const timeoutMs = settings?.scenario_timeout_ms;
  const deadline = timeoutMs !== undefined ? AbortSignal.timeout(timeoutMs) : undefined;
  const signals = [context.signal, deadline].filter((signal): signal is AbortSignal => signal !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];

  let transport: AgentTransport | undefined;
  let result: ScenarioConversation;
  // A bad file or a full disk (a ConfigError) ends the run with exit 2, but only after teardown.
  let fatal: unknown;
  try {
    if (isolation?.setup) {
      const setup = await runHook(isolation.setup, { cwd: suite.dir, env: hookEnv });
      if (!setup.ok) throw new SetupFailed(hookFailure('setup', isolation.setup, setup));
    }
    let responder: AgentResponder;
    if (isPromptAgent(agent)) {
      responder = promptAgentResponder({
        scenario: data,
        agent,
        systemPrompt: suite.agentPrompts[data.agent]?.text,
        tools: suite.agentTools[data.agent] ?? [],
        provider: modelProvider(agent.kind, agent.base_url, agent.api_key_env),
        pricer,
      });
    } else {
      let provider: Provider;
      if (replay) provider = replay;
      else {
        transport = serviceTransport(agent, suite, { ...hookEnv }, session, settings?.timeout_ms);
        const live = serviceProvider({
          transport,
          session: { conversation_id: session.conversation_id, tenant: session.tenant, scenario_id: data.id, run_id: session.run_id },
          ...('request' in agent && agent.request !== undefined ? { requestTemplate: agent.request } : {}),
          ...('response' in agent && agent.response !== undefined ? { responseMapping: responseMapping(agent.response) } : {}),
        });
        provider = recorder ? recordingProvider(live, recorder) : live;
      }
      // Each turn of a service agent is kept as a call (provider `service`) so that an export shows
      // it as a span like a prompt agent's; it is no model call of Parley's, so it costs nothing here.
      responder = serviceAgentResponder({ agentName: data.agent, scenarioId: data.id, provider: meteredProvider(provider, (call) => calls.push(call)) });
    }
    const simulator = suite.config.simulator;
    const simulate = data.user.simulate;
    const outcome = await runConversation({
      scenarioId: data.id,
      scriptedTurns: scriptedUserTurns(data),
      responder,
      pricer,
      ...(simulate && simulator
        ? {
            simulation: {
              settings: {
                provider: simulator.provider,
                model: simulator.model,
                ...(simulator.temperature !== undefined ? { temperature: simulator.temperature } : {}),
                ...(simulator.seed !== undefined ? { seed: simulator.seed } : {}),
                ...(simulator.max_tokens !== undefined ? { max_tokens: simulator.max_tokens } : {}),
              },
              user: { persona: simulate.persona, goal: simulate.goal, ...(data.language !== undefined ? { language: data.language } : {}) },
              maxTurns: simulate.max_turns,
              provider: modelProvider(simulator.provider, simulator.base_url, simulator.api_key_env),
            },
          }
        : {}),
      ...(signal ? { signal } : {}),
      ...(context.onTurn ? { onTurn: context.onTurn } : {}),
    });
    if (outcome.error === undefined) {
      if (recorder) await saveRecording(context, recordingFile, data.id, recorder);
      result = { kind: 'outcome', outcome: { transcript: outcome.transcript } };
    } else if (deadline?.aborted && !context.signal?.aborted) {
      result = failure('timeout', `scenario timed out after ${timeoutMs} ms (settings.scenario_timeout_ms)`, undefined, outcome.transcript);
    } else {
      result = conversationFailure(outcome.error, outcome.transcript);
    }
  } catch (error) {
    if (isConfigError(error)) fatal = error;
    result = error instanceof SetupFailed ? error.result : conversationFailure(error);
  } finally {
    await transport?.close();
  }
  if (isolation?.teardown) {
    const teardown = await runHook(isolation.teardown, { cwd: suite.dir, env: hookEnv });
    if (!teardown.ok && result.kind === 'outcome') {
      return hookFailure('teardown', isolation.teardown, teardown, result.outcome.transcript);
    }
    if (!teardown.ok && result.kind === 'error') {
      result.error.details = [result.error.details, `teardown "${isolation.teardown}" also failed (${teardown.exit}):\n${teardown.output}`]
        .filter(Boolean)
        .join('\n\n');
    }
  }
  if (fatal !== undefined) throw fatal;
  return result;
}

/** The command that records one scenario of this suite, with the suite's real path (relative when below the working folder). */
function recordCommandFor(suite: LoadedSuite, parleyCommand: (() => string) | undefined): (scenarioId: string) => string {
  const below = relative(process.cwd(), suite.dir);
  const shown = below === '' ? '.' : below.startsWith('..') || isAbsolute(below) ? suite.dir : below;
  return (scenarioId) => `${parleyCommand?.() ?? 'parley'} run ${shellWord(shown)} --mode record --scenario ${shellWord(scenarioId)}`;
}

/** A failed setup hook: no conversation, but teardown still runs (it may clean up half a setup). */
class SetupFailed extends Error {
  constructor(readonly result: ScenarioConversation) {
    super('setup failed');
  }
}

function failure(kind: string, message: string, details?: string, transcript?: Transcript): ScenarioConversation {
  return { kind: 'error', error: { kind, message, ...(details !== undefined ? { details } : {}) }, ...(transcript ? { transcript } : {}) };
}

function hookFailure(name: 'setup' | 'teardown', command: string, outcome: HookOutcome, transcript?: Transcript): ScenarioConversation {
  return failure('isolation', `isolation ${name} "${command}" ${outcome.exit}`, outcome.output || '(the hook printed nothing)', transcript);
}

function conversationFailure(error: unknown, transcript?: Transcript): ScenarioConversation {
  if (isProviderError(error)) return failure(error.kind, error.message, error.details, transcript);
  if (error instanceof WireFormatError) return failure('config', error.message, undefined, transcript);
  return failure('conversation', (error as Error)?.message ?? String(error), undefined, transcript);
}

function serviceTransport(
  agent: Exclude<AgentConfig, PromptAgentConfig>,
  suite: LoadedSuite,
  env: NodeJS.ProcessEnv,
  session: ScenarioSession,
  defaultTimeoutMs: number | undefined,
): AgentTransport {
  switch (agent.kind) {
    case 'http': {
      const headers = Object.fromEntries(Object.entries(agent.headers ?? {}).map(([name, value]) => [name, interpolateEnv(value, env)]));
      return httpAgent({
        url: interpolateEnv(agent.url, env),
        headers,
        session: { conversation_id: session.conversation_id, tenant: session.tenant, scenario_id: session.scenario_id, run_id: session.run_id },
        timeoutMs: agent.timeout_ms ?? defaultTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
      });
    }
    case 'command': {
      const extra = Object.fromEntries(Object.entries(agent.env ?? {}).map(([name, value]) => [name, interpolateEnv(value, env)]));
      return commandAgent({
        command: agent.command,
        cwd: agent.cwd ? resolveInSuite(suite, agent.cwd) : suite.dir,
        env: { ...env, ...extra },
        timeoutMs: agent.timeout_ms ?? defaultTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
      });
    }
    case 'module':
      return moduleAgent({
        file: resolveInSuite(suite, agent.module),
        ...(agent.export !== undefined ? { exportName: agent.export } : {}),
        timeoutMs: agent.timeout_ms ?? defaultTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
        env,
      });
  }
}

function responseMapping(mapping: Record<string, string>): ResponseMapping {
  const unknown = Object.keys(mapping).filter((key) => !(RESPONSE_MAPPING_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new WireFormatError(`response mapping has unknown field(s) ${unknown.join(', ')}; it maps ${RESPONSE_MAPPING_FIELDS.join(', ')}`);
  }
  return mapping;
}
