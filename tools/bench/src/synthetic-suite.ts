import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { manualClock, type ChatMessage, type Clock, type CompletionRequest, type CompletionResponse } from '@parley/core';
import { createRecorder, recordingPath, writeRecording } from '@parley/providers';
import {
  AVAILABILITY_TOOL,
  SYNTHETIC_USER_TURNS,
  syntheticConversation,
  type SyntheticConversation,
  type SyntheticExpectation,
} from './synthetic-conversation.js';

const SYNTHETIC_AGENT = { name: 'assistant', kind: 'openai', model: 'gpt-4.1-mini', temperature: 0.2 } as const;
/** What the recorded responses say answered: a dated model, as OpenAI reports it. */
const ANSWERING_MODEL = 'gpt-4.1-mini-2025-04-14';

const SYSTEM_PROMPT = [
  'You are Sol, the booking assistant of a salon that exists only for benchmarks.',
  'Answer briefly, check availability with the tool before offering a time, state the price',
  'before confirming, and always give the booking reference.',
  '',
].join('\n');

const SUITE_FILE = `# Synthetic suite written by tools/bench: every scenario replays from recordings/.
suite: parley_bench_synthetic
scenarios: scenarios/*.yaml
recordings: recordings

agents:
  ${SYNTHETIC_AGENT.name}:
    kind: ${SYNTHETIC_AGENT.kind}
    model: ${SYNTHETIC_AGENT.model}
    system_prompt: prompts/assistant.md
    tools: tools/availability.json
    temperature: ${SYNTHETIC_AGENT.temperature}

pricing:
  ${SYNTHETIC_AGENT.model}: { input: 0.40, output: 1.60 }
`;

export interface SyntheticSuiteOptions {
  /** Folder to write the suite into; created when missing. */
  dir: string;
  scenarioCount: number;
  /** Stamps `recorded_at`; a fixed clock by default, so two generations are byte-identical. */
  clock?: Clock;
}

export interface SyntheticSuite {
  dir: string;
  scenarioIds: string[];
  userTurnsPerScenario: number;
  /** Agent calls per scenario: one per user turn plus the tool round of turn 2. */
  callsPerScenario: number;
}

/**
 * Writes a suite of `scenarioCount` scripted scenarios (6 user turns each, one mocked tool call)
 * with their recordings, so that `parley run --mode replay` plays every scenario offline and
 * every scenario passes.
 *
 * The recordings are made the way a recording run makes them: each request is built in the shape
 * the engine sends (libs/engine/src/prompt-agent-conversation.ts) and goes through the real
 * `createRecorder` and `writeRecording`. If the engine's requests change shape, replay misses and
 * the benchmark, which demands that every scenario passes, fails instead of timing errors.
 */
export function writeSyntheticSuite(options: SyntheticSuiteOptions): SyntheticSuite {
  const { dir, scenarioCount } = options;
  if (!Number.isInteger(scenarioCount) || scenarioCount < 1) throw new RangeError(`scenarioCount must be a positive integer, got ${scenarioCount}`);
  const clock = options.clock ?? manualClock(new Date('2026-01-01T00:00:00Z'));
  for (const folder of ['prompts', 'tools', 'scenarios', 'recordings']) mkdirSync(join(dir, folder), { recursive: true });
  writeFileSync(join(dir, 'parley.yaml'), SUITE_FILE);
  writeFileSync(join(dir, 'prompts', 'assistant.md'), SYSTEM_PROMPT);
  writeFileSync(join(dir, 'tools', 'availability.json'), `${JSON.stringify([AVAILABILITY_TOOL], null, 2)}\n`);

  const scenarioIds: string[] = [];
  for (let index = 1; index <= scenarioCount; index += 1) {
    const conversation = syntheticConversation(index);
    writeFileSync(join(dir, 'scenarios', `${conversation.id}.yaml`), scenarioYaml(conversation));
    const recorder = createRecorder(clock);
    for (const call of recordedCalls(conversation)) recorder.add(call.request, call.response, { role: 'agent', scenario_id: conversation.id, turn: call.turn });
    writeRecording(recordingPath(join(dir, 'recordings'), conversation.id), recorder.entries);
    scenarioIds.push(conversation.id);
  }
  return { dir, scenarioIds, userTurnsPerScenario: SYNTHETIC_USER_TURNS, callsPerScenario: SYNTHETIC_USER_TURNS + 1 };
}

interface RecordedCall {
  turn: number;
  request: CompletionRequest;
  response: CompletionResponse;
}

/**
 * The agent calls of one conversation, each request carrying the history so far exactly as the
 * engine keeps it: user turn, assistant message (with its tool calls), tool results.
 */
function recordedCalls(conversation: SyntheticConversation): RecordedCall[] {
  const messages: ChatMessage[] = [];
  const calls: RecordedCall[] = [];
  const call = (turn: number, response: CompletionResponse): void => {
    calls.push({ turn, request: agentRequest(messages), response });
  };
  conversation.userTurns.forEach((text, index) => {
    const turn = index + 1;
    const reply = conversation.replies[index];
    if (reply === undefined) throw new RangeError(`scenario ${conversation.id} has no reply for turn ${turn}`);
    messages.push({ role: 'user', content: text });
    if (reply.toolCall) {
      const toolCalls = [reply.toolCall];
      call(turn, response('', toolCalls, messages));
      messages.push({ role: 'assistant', content: '', tool_calls: toolCalls });
      messages.push({
        role: 'tool',
        tool_call_id: reply.toolCall.id ?? 'call_1',
        name: reply.toolCall.name,
        content: JSON.stringify(conversation.toolReturns),
      });
    }
    call(turn, response(reply.text, [], messages));
    messages.push({ role: 'assistant', content: reply.text });
  });
  return calls;
}

function agentRequest(messages: ChatMessage[]): CompletionRequest {
  return {
    provider: SYNTHETIC_AGENT.kind,
    model: SYNTHETIC_AGENT.model,
    system: SYSTEM_PROMPT,
    messages: [...messages],
    tools: [AVAILABILITY_TOOL],
    temperature: SYNTHETIC_AGENT.temperature,
  };
}

/** A plausible response: token counts estimated at four characters a token, latency varying. */
function response(content: string, toolCalls: CompletionResponse['tool_calls'], history: ChatMessage[]): CompletionResponse {
  const inputCharacters = SYSTEM_PROMPT.length + history.reduce((sum, message) => sum + message.content.length, 0);
  return {
    content,
    tool_calls: toolCalls,
    usage: { input_tokens: Math.ceil(inputCharacters / 4), output_tokens: Math.max(1, Math.ceil(content.length / 4)) + toolCalls.length * 12 },
    finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    model: ANSWERING_MODEL,
    latency_ms: 350 + ((content.length * 37) % 900),
  };
}

/** The scenario file, in the plain YAML that scenario authors write. */
function scenarioYaml(conversation: SyntheticConversation): string {
  const lines = [
    `id: ${conversation.id}`,
    `title: ${quoted(conversation.title)}`,
    `agent: ${SYNTHETIC_AGENT.name}`,
    'tags: [synthetic, bench]',
    'user:',
    `  opening: ${quoted(conversation.userTurns[0] ?? '')}`,
    '  script:',
    ...conversation.userTurns.slice(1).map((text) => `    - ${quoted(text)}`),
    'tools:',
    `  ${AVAILABILITY_TOOL.name}:`,
    `    returns: { slots: [${conversation.toolReturns.slots.map(quoted).join(', ')}], price_kes: ${conversation.toolReturns.price_kes} }`,
    'expect:',
    ...conversation.expectations.flatMap(expectationYaml),
  ];
  return `${lines.join('\n')}\n`;
}

function expectationYaml(expectation: SyntheticExpectation): string[] {
  const lines = [`  - metric: ${expectation.metric}`];
  if (expectation.metric === 'max_turns') return [...lines, `    max: ${expectation.max}`];
  if (expectation.turn !== undefined) lines.push(`    turn: ${expectation.turn}`);
  if (expectation.required) lines.push(`    required: [${expectation.required.map(quoted).join(', ')}]`);
  if (expectation.forbidden) lines.push(`    forbidden: [${expectation.forbidden.map(quoted).join(', ')}]`);
  return lines;
}

/** A YAML double-quoted scalar: JSON's string escapes are valid YAML escapes. */
function quoted(text: string): string {
  return JSON.stringify(text);
}
