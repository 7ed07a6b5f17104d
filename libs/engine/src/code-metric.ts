import { basename } from 'node:path';
import { ProviderError } from '@parley/providers';
import { commandOnce } from './command-agent.js';
import { moduleAgent } from './module-agent.js';
import type { ModuleMetricThreads } from './module-metric-threads.js';

/**
 * The typed contract of a metric written in code (`kind: module` in `metrics/<name>.yaml`):
 *
 * ```ts
 * import { defineMetric } from 'parley-eval';
 * export default defineMetric({
 *   evaluate(input) {
 *     const last = input.transcript.turns.at(-1)?.content ?? '';
 *     const passed = last.includes('BK-');
 *     return { score: passed ? 1 : 0, passed, reason: passed ? 'reference given' : 'no reference' };
 *   },
 * });
 * ```
 *
 * A `kind: command` metric gets the same input as one JSON document on stdin and prints the same
 * answer as one JSON value on stdout.
 */

/**
 * One message of the conversation a code metric reads.
 * @public part of the parley-eval package's API (apps/cli/src/index.ts)
 */
export interface CodeMetricTurn {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** The 1-based user turn the message belongs to. */
  turn: number;
  /** An assistant message's tool calls. */
  tool_calls?: Array<{ name: string; args: Record<string, unknown> }>;
  /** A tool message's tool (its content is what the tool returned). */
  tool_name?: string;
  /** The agent's reported state after an assistant message. */
  state?: string;
}

/**
 * A tool call with the index of the assistant message that made it.
 * @public part of the parley-eval package's API (apps/cli/src/index.ts)
 */
export interface CodeMetricToolCall {
  name: string;
  args: Record<string, unknown>;
  message_index: number;
  /** What the tool returned (the content of the tool message that answered it), when there was one. */
  result?: string;
}

/**
 * What a code metric is given (the stdin document of a `kind: command` metric).
 * @public part of the parley-eval package's API (apps/cli/src/index.ts)
 */
export interface CodeMetricInput {
  metric: { name: string; version: string };
  /** The scenario's fields as validated (id, title, agent, language, tags, user, tools, expect …). */
  scenario: Record<string, unknown> & { id: string };
  /** The conversation: `turns[i]` is message index `i` of the answer's `messages`. */
  transcript: { turns: CodeMetricTurn[]; ended_by: string };
  /** Every tool call of the conversation, in order. */
  tool_calls: CodeMetricToolCall[];
  /** The agent's last reported state, or null when it reported none. */
  final_state: string | null;
  /** The expectation's `params:` mapping (empty when it has none). */
  params: Record<string, unknown>;
}

/**
 * A code metric's answer: a score in [0, 1], whether it passed, why, and optionally one score per message.
 * @public part of the parley-eval package's API (apps/cli/src/index.ts)
 */
export interface CodeMetricAnswer {
  score: number;
  passed: boolean;
  reason: string;
  /** Per-message results; `index` is the message's position in `transcript.turns`. */
  messages?: Array<{ index: number; score: number; reason: string }>;
}

/**
 * What else a module metric is given: the run's abort signal.
 * @public part of the parley-eval package's API (apps/cli/src/index.ts)
 */
export interface CodeMetricContext {
  signal: AbortSignal | undefined;
}

/**
 * A metric written as a module: its default export.
 * @public part of the parley-eval package's API (apps/cli/src/index.ts)
 */
export interface CodeMetric {
  evaluate(input: CodeMetricInput, context: CodeMetricContext): CodeMetricAnswer | Promise<CodeMetricAnswer>;
}

/**
 * Returns the metric unchanged: it only gives a module metric its types.
 * @public part of the parley-eval package's API (apps/cli/src/index.ts)
 */
export function defineMetric(metric: CodeMetric): CodeMetric {
  return metric;
}

/** How to run one code metric (from its metrics/<name>.yaml). */
export type CodeMetricProgram =
  | { kind: 'module'; name: string; file: string; timeoutMs: number; env: NodeJS.ProcessEnv }
  | { kind: 'command'; name: string; command: string[]; cwd: string; timeoutMs: number; env: NodeJS.ProcessEnv };

/**
 * Runs a code metric once, isolated as agents of the same kind are: a module in a worker thread
 * (the module agent's thread: `evaluate` of its default export is called), a command in a
 * subprocess (the command agent's spawn, one JSON document in, one JSON value out). A module runs
 * in the run's thread for that metric when `threads` is given (see ModuleMetricThreads: one
 * thread per metric per run), else in a thread of its own for this one evaluation. A command's
 * process lives for this one evaluation: that is a command's contract (it reads one document and
 * exits). Resolves with the checked answer; a throw, a crash, an answer of the wrong shape or a
 * timeout rejects with a ProviderError of kind `agent` whose message starts with `metric <name>:`
 * and whose details keep the stack or what it printed.
 */
export async function runCodeMetric(program: CodeMetricProgram, input: CodeMetricInput, signal?: AbortSignal, threads?: ModuleMetricThreads): Promise<CodeMetricAnswer> {
  let answer: unknown;
  if (program.kind === 'module' && threads) {
    answer = await threads.evaluate(program, input, signal);
  } else if (program.kind === 'module') {
    const thread = moduleAgent({ file: program.file, exportName: 'evaluate', timeoutMs: program.timeoutMs, env: program.env, label: 'module', owner: `metric ${program.name}` });
    try {
      answer = await thread.send(input, signal);
    } finally {
      await thread.close();
    }
  } else {
    const label = `metric ${program.name}: command "${program.command.join(' ')}"`;
    answer = await commandOnce({ command: program.command, cwd: program.cwd, env: program.env, timeoutMs: program.timeoutMs, label }, input, signal);
  }
  const problem = answerProblem(answer, input.transcript.turns.length);
  if (problem !== undefined) {
    const source = program.kind === 'module' ? `module ${basename(program.file)}` : `command "${program.command.join(' ')}"`;
    throw new ProviderError('agent', `metric ${program.name}: ${source} answered ${problem}`, { details: `its answer: ${preview(answer)}` });
  }
  return answer as CodeMetricAnswer;
}

/** Why an answer is not `{ score, passed, reason, messages? }`, or undefined when it is. */
function answerProblem(answer: unknown, turns: number): string | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return `${describe(answer)}, not { score, passed, reason }`;
  const { score, passed, reason, messages, ...rest } = answer as Record<string, unknown>;
  if ('reply' in rest && typeof rest['reply'] === 'string' && Object.keys(rest).length === 1) return 'a string, not { score, passed, reason }';
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) return `score ${describe(score)}: it must be a number from 0 to 1`;
  if (typeof passed !== 'boolean') return `passed ${describe(passed)}: it must be true or false`;
  if (typeof reason !== 'string' || reason.trim() === '') return `reason ${describe(reason)}: it must be a non-empty string`;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return `the unknown key ${unknown[0]}: the answer has score, passed, reason and messages only`;
  if (messages === undefined) return undefined;
  if (!Array.isArray(messages)) return `messages ${describe(messages)}: it must be a list of { index, score, reason }`;
  for (const [position, entry] of messages.entries()) {
    const item = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const where = `messages[${position}]`;
    if (typeof item['index'] !== 'number' || !Number.isInteger(item['index']) || item['index'] < 0 || item['index'] >= turns) {
      return `${where}.index ${describe(item['index'])}: it must be a message's position in transcript.turns (0 to ${turns - 1})`;
    }
    const itemScore = item['score'];
    if (typeof itemScore !== 'number' || !Number.isFinite(itemScore) || itemScore < 0 || itemScore > 1) return `${where}.score ${describe(itemScore)}: it must be a number from 0 to 1`;
    if (typeof item['reason'] !== 'string') return `${where}.reason ${describe(item['reason'])}: it must be a string`;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
