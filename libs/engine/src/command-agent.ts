import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
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
    // Through cmd.exe on Windows unless it is an .exe: `npx …` and other .cmd shims start no other way.
    const plan = programPlan(options.command, globalThis.process.platform, options.env);
    const process = spawn(plan.file, plan.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: 'pipe',
      ...(plan.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
    });
    process.stderr.setEncoding('utf8');
    process.stderr.on('data', (chunk: string) => {
      stderr = tail(stderr + chunk, 16_000);
    });
    process.stdin.on('error', () => undefined); // EPIPE after an early exit is reported as the exit
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

  const printed = (): string => {
    const parts = [stderr.trim() ? `stderr:\n${tail(stderr.trimEnd())}` : 'stderr: (empty)'];
    if (stdoutSeen.trim()) parts.push(`stdout:\n${tail(stdoutSeen.trimEnd(), 2000)}`);
    return parts.join('\n');
  };

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
      const grace = options.exitGraceMs ?? 2000;
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        if (await exitsWithin(gone, grace)) return;
        process.kill(signal);
      }
      await gone;
    },
  };
}

async function exitsWithin(gone: Promise<void>, milliseconds: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([gone.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), milliseconds)))]);
  clearTimeout(timer);
  return result;
}
