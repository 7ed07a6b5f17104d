import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { nearestFolder } from '@parley/core';
import { ProviderError } from '@parley/providers';
import { tail, type AgentTransport } from './agent-transport.js';
import { MODULE_AGENT_WORKER_SOURCE } from './module-agent-worker.js';

export interface ModuleAgentOptions {
  /** Absolute path of the module. */
  file: string;
  /** Exported function name (default `respond`, else a default export function). */
  exportName?: string;
  /** Longest wait for one reply; the agent's thread is stopped after it. */
  timeoutMs: number;
  /** The agent's environment (`process.env` inside the module). */
  env?: NodeJS.ProcessEnv;
  /**
   * What the module is called in error messages (default `module agent`): a code metric runs in
   * the same kind of thread and calls it `module`.
   */
  label?: string;
  /**
   * What every error message starts with, before a colon: a code metric's errors all start with
   * `metric <name>:` (docs/file-formats.md, "Metrics written in code"), load failures too.
   */
  owner?: string;
  /**
   * Keep only what the module printed during the current call for an error's details (default:
   * everything since the thread started, as an agent's turns make one conversation). A code
   * metric's thread serves many evaluations; each error shows its own output.
   */
  printedPerCall?: boolean;
}

/** A module agent's transport, which also says whether its thread can still take a call. */
export interface ModuleAgentTransport extends AgentTransport {
  /** False once the thread has crashed, was stopped (a timeout, an abort) or closed: start another. */
  isOpen(): boolean;
}

const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);

const WORKER_URL = new URL(`data:text/javascript,${encodeURIComponent(MODULE_AGENT_WORKER_SOURCE)}`);

type WorkerMessage =
  | { type: 'reply'; id: number; answer: unknown }
  | { type: 'threw'; id: number; message: string; stack?: string }
  | { type: 'load-failed'; id: number; message: string };

interface PendingTurn {
  id: number;
  settle(outcome: { answer: unknown } | { error: ProviderError }): void;
}

/**
 * An agent written as a JS or TS module exporting `respond`, run in a worker thread of its own
 * (one per scenario, started on the first turn: a replay never loads it). Nothing the module does
 * can end the run: a promise that never settles is stopped at the timeout or the scenario's
 * deadline, an uncaught error or `process.exit()` ends only its thread, and each becomes an
 * `error` result carrying what the module printed. The module gets the default wire body; a plain
 * string answer is the reply text. A TypeScript module is compiled with esbuild when Node cannot
 * strip types.
 */
export function moduleAgent(options: ModuleAgentOptions): ModuleAgentTransport {
  const name = basename(options.file);
  const label = options.label ?? 'module agent';
  const prefix = options.owner === undefined ? '' : `${options.owner}: `;
  let worker: Worker | undefined;
  let compiledFile: string | undefined;
  /** Why the thread is gone, once it is. */
  let ended: string | undefined;
  let pending: PendingTurn | undefined;
  let printed = '';
  let turns = 0;

  const details = (): string | undefined => (printed.trim() ? `the module printed:\n${tail(printed.trimEnd())}` : undefined);
  const agentError = (message: string, extra?: string): ProviderError => {
    const text = [extra, details()].filter(Boolean).join('\n\n');
    return new ProviderError('agent', prefix + message, text ? { details: text } : {});
  };
  const removeCompiledFile = (): void => {
    if (compiledFile) rmSync(compiledFile, { force: true });
    compiledFile = undefined;
  };
  const end = (reason: string): void => {
    if (ended !== undefined) return;
    ended = reason;
    removeCompiledFile();
    const turn = pending;
    pending = undefined;
    turn?.settle({ error: agentError(`${label} ${name} ${reason}`) });
  };

  const start = async (): Promise<Worker> => {
    if (!existsSync(options.file)) throw new ProviderError('agent', `${prefix}cannot load ${label} ${options.file}: file not found`);
    compiledFile = await compileIfNeeded(options.file, `${prefix}cannot load ${label}`);
    // Taken here rather than imported: every run loads this module, few start a module agent, and
    // node:worker_threads is ~2 ms of Node's own modules to load.
    const { Worker: WorkerThread } = process.getBuiltinModule('node:worker_threads');
    const started = new WorkerThread(WORKER_URL, {
      workerData: { file: options.file, exportName: options.exportName, compiledFile, label, parleyEvalUrl: parleyEvalUrl() },
      env: { ...process.env, ...options.env },
      stdout: true,
      stderr: true,
    });
    for (const stream of [started.stdout, started.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (printed = tail(printed + chunk, 16_000)));
    }
    started.on('message', (message: WorkerMessage) => {
      removeCompiledFile(); // imported by now
      const turn = pending;
      if (turn?.id !== message.id) return;
      pending = undefined;
      if (message.type === 'reply') turn.settle({ answer: message.answer });
      else if (message.type === 'threw') turn.settle({ error: agentError(`${label} ${name} threw: ${message.message}`, message.stack === undefined ? undefined : agentStack(message.stack)) });
      else if (readAsCommonJs(options.file, message.message)) turn.settle({ error: new ProviderError('agent', `${prefix}${commonJsTypeScriptMessage(options.file, label)}`) });
      else turn.settle({ error: agentError(message.message) });
    });
    started.on('error', (error) => end(`crashed with an uncaught error: ${error.message}`));
    started.on('exit', (code) => end(`ended its thread (exit code ${code})`));
    return started;
  };

  return {
    isOpen: () => ended === undefined,
    async send(body, signal) {
      signal?.throwIfAborted();
      if (ended !== undefined) throw agentError(`${label} ${name} ${ended}`);
      worker ??= await start();
      const thread = worker;
      if (options.printedPerCall) printed = '';
      const id = (turns += 1);
      return new Promise<unknown>((resolve, reject) => {
        const stop = (error: ProviderError): void => {
          if (pending?.id !== id) return;
          pending = undefined;
          ended ??= 'was stopped';
          thread.postMessage({ type: 'abort' });
          void thread.terminate();
          settle({ error });
        };
        const timer = setTimeout(() => stop(agentError(`${label} ${name} did not reply within ${options.timeoutMs} ms`)), options.timeoutMs);
        const onAbort = (): void => stop(new ProviderError('aborted', 'agent call aborted'));
        const settle: PendingTurn['settle'] = (outcome) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          if ('error' in outcome) reject(outcome.error);
          else resolve(typeof outcome.answer === 'string' ? { reply: outcome.answer } : outcome.answer);
        };
        pending = { id, settle };
        // The run may have aborted while the thread was starting (before this listener existed).
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        thread.postMessage({ type: 'turn', id, body });
      });
    },
    async close() {
      const thread = worker;
      worker = undefined;
      ended ??= 'was closed';
      removeCompiledFile();
      // A call still waiting is answered now: the thread's exit no longer settles it once `ended` is set.
      const turn = pending;
      pending = undefined;
      turn?.settle({ error: agentError(`${label} ${name} was closed`) });
      await thread?.terminate();
    },
  };
}

/**
 * The URL of the running Parley's public entry (the `parley-eval` package), given to the module's
 * thread for modules whose folder cannot resolve it; undefined when it cannot be found (a source
 * checkout not built yet).
 */
function parleyEvalUrl(): string | undefined {
  try {
    return import.meta.resolve('parley-eval');
  } catch {
    return undefined;
  }
}

/**
 * A TypeScript module Node reads as CommonJS, where its first `import`/`export` is a syntax error:
 * a `.ts` one in a package whose package.json says (or defaults to) CommonJS, or any `.cts` one
 * (whose `export =` type stripping cannot take either).
 */
function readAsCommonJs(file: string, loadError: string): boolean {
  const extension = extname(file);
  if (extension === '.cts') return /Unexpected token 'export'|Cannot use import statement outside a module|export assignment is not supported/.test(loadError);
  if (extension !== '.ts' || !/Unexpected token 'export'|Cannot use import statement outside a module/.test(loadError)) return false;
  return packageTypeOf(dirname(file)) !== 'module';
}

/** One line: what went wrong and the rename that fixes it. */
function commonJsTypeScriptMessage(file: string, label: string): string {
  const extension = extname(file);
  const renamed = `${basename(file, extension)}.mts`;
  const why = extension === '.cts' ? 'a .cts file is CommonJS, where Node loads no import or export (nor export =)' : 'its package.json makes .ts files CommonJS, so export is a syntax error';
  return `cannot load ${label} ${basename(file)}: ${why}; rename it to ${renamed} (always an ES module) and set module: to that name`;
}

/** The `type` of the nearest package.json above a folder (undefined when it has none). */
function packageTypeOf(folder: string): string | undefined {
  const packageFolder = nearestFolder(folder, (candidate) => existsSync(join(candidate, 'package.json')));
  if (packageFolder === undefined) return undefined;
  try {
    const type = (JSON.parse(readFileSync(join(packageFolder, 'package.json'), 'utf8')) as { type?: unknown }).type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
}

/** The compiled JavaScript of a TypeScript module when Node cannot strip its types, else undefined. */
async function compileIfNeeded(file: string, cannotLoad: string): Promise<string | undefined> {
  const typescript = TYPESCRIPT_EXTENSIONS.has(extname(file));
  const nodeStripsTypes = Boolean((process.features as { typescript?: unknown }).typescript);
  if (!typescript || nodeStripsTypes) return undefined;
  try {
    return await compileTypeScript(file);
  } catch (error) {
    throw new ProviderError('agent', `${cannotLoad} ${file}: ${(error as Error).message}`);
  }
}

/**
 * Compiles a TypeScript module beside its source (so its relative imports and packages resolve
 * as they would for the source); the agent's thread imports it and the file is removed.
 */
async function compileTypeScript(file: string): Promise<string> {
  // A variable specifier keeps the CLI bundler from trying to inline the compiler.
  const compilerName = 'esbuild';
  let compiler: { build(options: Record<string, unknown>): Promise<unknown> };
  try {
    compiler = (await import(compilerName)) as typeof compiler;
  } catch {
    throw new Error('a TypeScript module agent needs Node 22.6+ (type stripping) or the esbuild package; or point `module:` at compiled JavaScript');
  }
  const output = join(dirname(file), `.${basename(file, extname(file))}.parley-${process.pid}-${Date.now()}.mjs`);
  await compiler.build({ entryPoints: [file], outfile: output, bundle: true, packages: 'external', format: 'esm', platform: 'node', logLevel: 'silent' });
  return output;
}

/**
 * An agent's stack as its author needs it: its own frames. The frames of Parley's worker (loaded
 * from a `data:` URL that holds the worker's whole source, URL-encoded) and Node's internals
 * are dropped; when none of the agent's frames is left, the first line (the error) stays.
 */
function agentStack(stack: string): string {
  const lines = stack.split('\n');
  const isFrame = (line: string) => /^\s+at /.test(line);
  const ours = (line: string) => line.includes('data:text/javascript') || /\(?node:internal\//.test(line);
  const kept = lines.filter((line) => !(isFrame(line) && ours(line)));
  return kept.join('\n');
}
