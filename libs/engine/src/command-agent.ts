import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { programPlan } from '@parley/core';
import { ProviderError } from '@parley/providers';
import { tail, type AgentTransport } from './agent-transport.js';

export interface CommandAgentOptions {
  command: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Longest wait for one reply line. */
  timeoutMs: number;
  /** How long a process may take to exit after its stdin closes before it is terminated. */
  exitGraceMs?: number;
}

/**
 * An agent in a subprocess, one per scenario, speaking JSON lines: one line per user turn on its
 * stdin, one line back on its stdout. The process starts on the first turn (a replay never starts
 * it) and ends when the scenario does. Its stderr is kept: a line that is not JSON, an exit before
 * replying or a silent process fails the scenario with what the agent printed.
 */
export function commandAgent(options: CommandAgentOptions): AgentTransport {
  let child: ChildProcessWithoutNullStreams | undefined;
  let stderr = '';
  let stdoutSeen = '';
  const lines: string[] = [];
  let waiting: ((event: { line?: string; exit?: string }) => void) | undefined;
  let exited: string | undefined;
  let closed = false;
  const program = options.command.join(' ');

  const start = (): ChildProcessWithoutNullStreams => {
    const process = startProgram(options, (chunk) => (stderr = tail(stderr + chunk, 16_000)));
    // node:readline is taken here, not imported: every run loads this module, few start a command agent.
    const { createInterface } = globalThis.process.getBuiltinModule('node:readline');
    createInterface({ input: process.stdout }).on('line', (line) => {
      stdoutSeen = tail(`${stdoutSeen}${line}\n`, 4000);
      if (waiting) {
        const wake = waiting;
        waiting = undefined;
        wake({ line });
      } else lines.push(line);
    });
    const onEnd = (description: string): void => {
      exited ??= description;
      const wake = waiting;
      waiting = undefined;
      wake?.({ exit: exited });
    };
    process.on('error', (error) => onEnd(`could not be started: ${error.message}`));
    process.on('close', (code, signal) => onEnd(signal ? `was killed by ${signal}` : `exited with code ${code}`));
    return process;
  };

  const printed = (): string => printedBy(stderr, stdoutSeen);

  const nextLine = (signal: AbortSignal | undefined): Promise<{ line?: string; exit?: string }> => {
    const queued = lines.shift();
    if (queued !== undefined) return Promise.resolve({ line: queued });
    if (exited !== undefined) return Promise.resolve({ exit: exited });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting = undefined;
        reject(new ProviderError('agent', `agent command "${program}" did not reply within ${options.timeoutMs} ms`, { details: printed() }));
      }, options.timeoutMs);
      const onAbort = (): void => {
        clearTimeout(timer);
        waiting = undefined;
        reject(new ProviderError('aborted', 'agent call aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting = (event) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(event);
      };
    });
  };

  let turn = 0;
  /**
   * The protocol is one line per turn: a line still queued when a turn has its reply (or when the
   * next turn is sent) was printed for a turn that already had one. It is that turn's error, never
   * the next turn's reply.
   */
  const extraLine = (of: number): ProviderError | undefined => {
    const extra = lines.filter((line) => line.trim() !== '');
    if (extra.length === 0) return undefined;
    return new ProviderError(
      'agent',
      `agent command "${program}" printed ${extra.length + 1} lines for turn ${of}: the protocol is one JSON line per turn (the extra: ${tail(extra[0]!, 200)})`,
      { details: printed() },
    );
  };

  return {
    async send(body, signal) {
      signal?.throwIfAborted();
      const late = turn > 0 ? extraLine(turn) : undefined;
      if (late) throw late;
      turn += 1;
      child ??= start();
      if (exited === undefined) child.stdin.write(`${JSON.stringify(body)}\n`);
      for (;;) {
        const event = await nextLine(signal);
        if (event.exit !== undefined) {
          throw new ProviderError('agent', `agent command "${program}" ${event.exit} before replying`, { details: printed() });
        }
        const line = event.line!;
        if (line.trim() === '') continue;
        let reply: unknown;
        try {
          reply = JSON.parse(line) as unknown;
        } catch {
          throw new ProviderError('agent', `agent command "${program}" printed a line that is not JSON: ${tail(line, 200)}`, {
            details: printed(),
          });
        }
        const extra = extraLine(turn);
        if (extra) throw extra;
        return reply;
      }
    },
    async close() {
      if (closed || !child) return;
      closed = true;
      const process = child;
      if (exited !== undefined) return;
      const gone = new Promise<void>((resolve) => process.once('close', () => resolve()));
      process.stdin.end();
      await endProgram(process, gone, options.exitGraceMs ?? 2000);
    },
  };
}

/**
 * Starts a program with piped stdio: through cmd.exe on Windows unless it is an .exe (`npx …` and
 * other .cmd shims start no other way). What it prints on stderr goes to `onStderr`.
 */
function startProgram(options: Pick<CommandAgentOptions, 'command' | 'cwd' | 'env'>, onStderr: (chunk: string) => void): ChildProcessWithoutNullStreams {
  const plan = programPlan(options.command, globalThis.process.platform, options.env);
  const process = spawn(plan.file, plan.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: 'pipe',
    ...(plan.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
  });
  process.stderr.setEncoding('utf8');
  process.stderr.on('data', onStderr);
  process.stdin.on('error', () => undefined); // EPIPE after an early exit is reported as the exit
  return process;
}

/** Waits `grace` ms for the process to exit, then SIGTERM, then (after `grace` again) SIGKILL. */
async function endProgram(process: ChildProcessWithoutNullStreams, gone: Promise<void>, grace: number): Promise<void> {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    if (await exitsWithin(gone, grace)) return;
    process.kill(signal);
  }
  await gone;
}

/** What a program printed, for an error's details: its stderr's end, and its stdout's when it printed any. */
function printedBy(stderr: string, stdout: string): string {
  const parts = [stderr.trim() ? `stderr:\n${tail(stderr.trimEnd())}` : 'stderr: (empty)'];
  if (stdout.trim()) parts.push(`stdout:\n${tail(stdout.trimEnd(), 2000)}`);
  return parts.join('\n');
}

export interface CommandOnceOptions extends Pick<CommandAgentOptions, 'command' | 'cwd' | 'env' | 'timeoutMs' | 'exitGraceMs'> {
  /** What the program is called in error messages, e.g. `metric command "python3 check.py"`. */
  label: string;
}

/** Most a one-shot program may print on stdout; more is an error, not a reply. */
const ONE_SHOT_STDOUT_LIMIT = 8 * 1024 * 1024;

/**
 * Runs a program once (a `command` code metric): `input` as one JSON document on its stdin, which
 * is then closed, and its whole stdout read as one JSON value once it exits with code 0. Started
 * and ended like a command agent's process (same spawn, same SIGTERM-then-SIGKILL); a timeout, a
 * non-zero exit, a signal or stdout that is not one JSON value is a ProviderError of kind `agent`
 * naming `label`, with what the program printed in its details.
 */
export async function commandOnce(options: CommandOnceOptions, input: unknown, signal?: AbortSignal): Promise<unknown> {
  signal?.throwIfAborted();
  let stderr = '';
  let stdout = '';
  let stdoutBytes = 0;
  const process = startProgram(options, (chunk) => (stderr = tail(stderr + chunk, 16_000)));
  process.stdout.setEncoding('utf8');
  process.stdout.on('data', (chunk: string) => {
    stdoutBytes += chunk.length;
    if (stdoutBytes <= ONE_SHOT_STDOUT_LIMIT) stdout += chunk;
  });
  const ended = new Promise<string | undefined>((resolve) => {
    process.on('error', (error) => resolve(`could not be started: ${error.message}`));
    process.on('close', (code, killedBy) => resolve(killedBy ? `was killed by ${killedBy}` : code === 0 ? undefined : `exited with code ${code}`));
  });
  const gone = ended.then(() => undefined);
  process.stdin.end(`${JSON.stringify(input)}\n`);
  const failure = (message: string): ProviderError => new ProviderError('agent', message, { details: printedBy(stderr, stdout) });

  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<'timeout' | 'aborted'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    onAbort = () => resolve('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const outcome = await Promise.race([ended.then((exit) => ({ exit })), stopped]);
  clearTimeout(timer);
  if (onAbort) signal?.removeEventListener('abort', onAbort);
  if (outcome === 'timeout' || outcome === 'aborted') {
    // It gets no grace to finish: SIGTERM now, SIGKILL if it ignores that.
    process.kill('SIGTERM');
    await endProgram(process, gone, options.exitGraceMs ?? 2000);
    if (outcome === 'aborted') throw new ProviderError('aborted', `${options.label} aborted`);
    throw failure(`${options.label} did not answer within ${options.timeoutMs} ms`);
  }
  if (outcome.exit !== undefined) throw failure(`${options.label} ${outcome.exit}`);
  if (stdoutBytes > ONE_SHOT_STDOUT_LIMIT) throw failure(`${options.label} printed more than ${ONE_SHOT_STDOUT_LIMIT} characters on stdout`);
  if (stdout.trim() === '') throw failure(`${options.label} printed nothing on stdout: it should print one JSON value`);
  try {
    return JSON.parse(stdout) as unknown;
  } catch {
    throw failure(`${options.label} printed something that is not one JSON value: ${tail(stdout.trim(), 200)}`);
  }
}

async function exitsWithin(gone: Promise<void>, milliseconds: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([gone.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), milliseconds)))]);
  clearTimeout(timer);
  return result;
}
