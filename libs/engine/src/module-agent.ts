import { existsSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProviderError } from '@parley/providers';
import type { AgentTransport } from './agent-transport.js';

/** What a module agent's respond function is given besides the turn's body. */
export interface ModuleAgentContext {
  signal: AbortSignal | undefined;
}

/** `respond(body, context)` of a module agent: the reply text, or `{reply, tool_calls?, state?}`. */
export type ModuleRespond = (body: unknown, context: ModuleAgentContext) => unknown;

export interface ModuleAgentOptions {
  /** Absolute path of the module. */
  file: string;
  /** Exported function name (default `respond`, else a default export function). */
  exportName?: string;
}

const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);

/**
 * An agent written as a JS or TS module exporting `respond`. It is loaded on the first turn (a
 * replay never loads it) and called in-process with the default wire body; a plain string answer
 * is the reply text. A TypeScript module is compiled with esbuild when Node cannot strip types.
 */
export function moduleAgent(options: ModuleAgentOptions): AgentTransport {
  let respond: Promise<ModuleRespond> | undefined;
  return {
    async send(body, signal) {
      signal?.throwIfAborted();
      const handler = await (respond ??= loadRespond(options));
      let answer: unknown;
      try {
        answer = await untilAborted(Promise.resolve(handler(body, { signal })), signal);
      } catch (error) {
        if (signal?.aborted) throw new ProviderError('aborted', 'agent call aborted');
        throw new ProviderError('agent', `module agent ${basename(options.file)} threw: ${(error as Error)?.message ?? String(error)}`, {
          ...((error as Error)?.stack ? { details: (error as Error).stack } : {}),
        });
      }
      return typeof answer === 'string' ? { reply: answer } : answer;
    },
    async close() {},
  };
}

async function loadRespond(options: ModuleAgentOptions): Promise<ModuleRespond> {
  const name = options.exportName ?? 'respond';
  let exports: Record<string, unknown>;
  try {
    exports = (await importModule(options.file)) as Record<string, unknown>;
  } catch (error) {
    throw new ProviderError('agent', `cannot load module agent ${options.file}: ${(error as Error).message}`);
  }
  const candidate =
    exports[name] ??
    (options.exportName === undefined && typeof exports.default === 'function' ? exports.default : undefined) ??
    (exports.default as Record<string, unknown> | undefined)?.[name];
  if (typeof candidate !== 'function') {
    throw new ProviderError('agent', `module agent ${options.file} exports no function "${name}" (exports: ${Object.keys(exports).join(', ') || 'none'})`);
  }
  return candidate as ModuleRespond;
}

async function importModule(file: string): Promise<unknown> {
  if (!existsSync(file)) throw new Error('file not found');
  const typescript = TYPESCRIPT_EXTENSIONS.has(extname(file));
  const nodeStripsTypes = Boolean((process.features as { typescript?: unknown }).typescript);
  if (!typescript || nodeStripsTypes) return import(pathToFileURL(file).href);
  return importCompiledTypeScript(file);
}

/**
 * Compiles a TypeScript module beside its source (so its relative imports and packages resolve
 * as they would for the source), imports it and removes the compiled file.
 */
async function importCompiledTypeScript(file: string): Promise<unknown> {
  // A variable specifier keeps the CLI bundler from trying to inline the compiler.
  const compilerName = 'esbuild';
  let compiler: { build(options: Record<string, unknown>): Promise<unknown> };
  try {
    compiler = (await import(compilerName)) as typeof compiler;
  } catch {
    throw new Error('a TypeScript module agent needs Node 22.6+ (type stripping) or the esbuild package; or point `module:` at compiled JavaScript');
  }
  const output = join(dirname(file), `.${basename(file, extname(file))}.parley-${process.pid}-${Date.now()}.mjs`);
  try {
    await compiler.build({ entryPoints: [file], outfile: output, bundle: true, packages: 'external', format: 'esm', platform: 'node', logLevel: 'silent' });
    return await import(pathToFileURL(output).href);
  } finally {
    rmSync(output, { force: true });
  }
}

/** A module that ignores its signal must not hold the scenario: stop waiting when it is aborted. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
