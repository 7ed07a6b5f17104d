import { spawn } from 'node:child_process';
import { shellCommandPlan } from '@parley/core';
import type { ScenarioSession } from './session.js';

/** `isolation:` of parley.yaml: shell commands run from the suite folder (docs/file-formats.md §1). */
export interface IsolationHooks {
  sweep?: string;
  setup?: string;
  teardown?: string;
}

export type HookName = keyof IsolationHooks;

/** How a hook went: its exit and everything it printed (stdout and stderr interleaved). */
export interface HookOutcome {
  ok: boolean;
  /** `exited with code 3`, `was killed by SIGTERM`, `timed out after 120000 ms`, `could not be started: …`. */
  exit: string;
  output: string;
}

export const DEFAULT_HOOK_TIMEOUT_MS = 120_000;
const MAX_OUTPUT = 8000;

/** The variables every hook (and every command agent) gets: which run, scenario and tenant this is. */
export function sessionEnv(session: Pick<ScenarioSession, 'run_id'> & Partial<ScenarioSession>): Record<string, string> {
  return {
    PARLEY_RUN_ID: session.run_id,
    ...(session.scenario_id !== undefined ? { PARLEY_SCENARIO_ID: session.scenario_id } : {}),
    ...(session.tenant !== undefined ? { PARLEY_TENANT: session.tenant } : {}),
    ...(session.conversation_id !== undefined ? { PARLEY_CONVERSATION_ID: session.conversation_id } : {}),
  };
}

/**
 * Runs one hook through the platform's shell (`/bin/sh -c`, or `cmd.exe` on Windows) in the suite folder. It never throws: a non-zero exit, a signal, a
 * timeout or a command that cannot start is a failed outcome carrying what the hook printed, which
 * the runner puts into the scenario's `error` result.
 */
export function runHook(command: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<HookOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    // /bin/sh -c on Linux and macOS, cmd.exe /d /s /c on Windows.
    const plan = shellCommandPlan(command, process.platform, options.env);
    const child = spawn(plan.file, plan.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(plan.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
    });
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, exit: `could not be started: ${error.message}`, output });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const exit = timedOut ? `timed out after ${timeoutMs} ms` : signal ? `was killed by ${signal}` : `exited with code ${code}`;
      resolve({ ok: !timedOut && code === 0, exit, output: output.trimEnd() });
    });
  });
}
