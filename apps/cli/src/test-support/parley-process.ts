import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { FakeLlmServer } from '@parley/fake-llm';
import { REPO_ROOT } from './example-copy.js';
import { until } from './until.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');

export interface ParleyProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `parley` binary without blocking this process, so that servers the test runs
 * (fake-llm, fake-langfuse, an http agent) can answer it. Only PATH and HOME are inherited from
 * the test's environment; colour is off. `nodeArgs` go to node before the binary (`--require …`);
 * `onSpawn` gets the process as it starts (to signal it: see {@link interruptOnHang}).
 */
export function parleyAsync(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; nodeArgs?: string[]; onSpawn?: (child: ChildProcess) => void },
): Promise<ParleyProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    options.onSpawn?.(child);
  });
}

/**
 * For {@link parleyAsync}'s `onSpawn`: Ctrl-C (SIGINT) once the run has a model call waiting on the
 * fake LLM's `hang` fault, i.e. mid-run with a scenario cut short, however slowly the machine runs.
 */
export function interruptOnHang(fake: FakeLlmServer): (child: ChildProcess) => void {
  const from = fake.requests.length;
  return (child) => void until(() => fake.requests.slice(from).some((request) => request.fault === 'hang')).then(() => child.kill('SIGINT'));
}
