/** The CLI as a real subprocess: the compiled `dist/cli.js`, built first when it is missing or stale. */
import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));
const sourceDirectory = fileURLToPath(new URL('.', import.meta.url));
const cliPath = join(packageDirectory, 'dist', 'cli.js');

/** Rebuilding only when a source file is newer keeps the usual run fast and never tests stale code. */
function distIsStale(): boolean {
  if (!existsSync(cliPath)) return true;
  const builtAt = statSync(cliPath).mtimeMs;
  return readdirSync(sourceDirectory)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .some((name) => statSync(join(sourceDirectory, name)).mtimeMs > builtAt);
}

beforeAll(() => {
  if (!distIsStale()) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', packageDirectory], { stdio: 'pipe' });
}, 60_000);

function writeTemp(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fake-llm-cli-')), name);
  writeFileSync(path, text);
  return path;
}

function startCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [cliPath, ...args], { stdio: 'pipe' });
}

function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      lines.close();
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`the CLI exited with ${code} before printing a line`)));
  });
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('parley-fake-llm CLI', () => {
  it('prints where it listens, answers from the script, logs, and stops on SIGTERM', async () => {
    const script = writeTemp('script.yaml', 'rules:\n  - name: greet\n    when: { last_user: "/habari/i" }\n    reply: { content: "Karibu!" }\n');
    const logFile = join(mkdtempSync(join(tmpdir(), 'fake-llm-cli-log-')), 'requests.jsonl');
    const child = startCli(['--script', script, '--port', '0', '--log', logFile]);
    const exited = exitOf(child);
    try {
      const line = await firstLine(child);
      expect(line).toMatch(/^fake-llm listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = line.replace('fake-llm listening on ', '');
      const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test-SECRET123', maxRetries: 0 });
      const completion = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Habari!' }] });
      expect(completion.choices[0]?.message.content).toBe('Karibu!');
    } finally {
      child.kill('SIGTERM');
    }
    expect((await exited).code).toBe(0);
    const logged = readFileSync(logFile, 'utf8');
    expect(JSON.parse(logged.trim())).toMatchObject({ seq: 1, api: 'openai', rule: 'greet', status: 200 });
    expect(logged).not.toContain('SECRET123');
  });

  it('exits 2 with a message naming the file when the script is invalid', async () => {
    const script = writeTemp('bad.yaml', 'rules:\n  - when: { last_usr: hi }\n    reply: { content: x }\n');
    const { code, stderr } = await exitOf(startCli(['--script', script]));
    expect(code).toBe(2);
    expect(stderr).toContain(`${script}:2:13: rules[0].when.last_usr: unknown key last_usr`);
  });

  it('exits 2 without --script', async () => {
    const { code, stderr } = await exitOf(startCli([]));
    expect(code).toBe(2);
    expect(stderr).toContain('--script is required');
  });
});
