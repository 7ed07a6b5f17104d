/** `parley-fake-langfuse` as a real subprocess (the compiled bin; the test set-up builds it). */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/fake-langfuse.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fake-langfuse-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEYS = { LANGFUSE_PUBLIC_KEY: 'pk-lf-cli', LANGFUSE_SECRET_KEY: 'sk-lf-cli' };

function run(args: string[], env: NodeJS.ProcessEnv) {
  return spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: 'pipe' });
}

describe('parley-fake-langfuse', () => {
  it('serves the scores of the file until it is stopped', async () => {
    const file = join(dir, 'scores.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 's1', name: 'user_thumbs', dataType: 'BOOLEAN', value: true, timestamp: '2026-11-26T10:00:00.000Z', traceId: 't1' })}\n\n`);
    const child = run(['--scores', file], KEYS);
    const exited = once(child, 'exit');
    // The first line says where it listens; waiting for it is waiting for the server, however long it takes to start.
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const url = /^fake-langfuse listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
    expect(url).toBeDefined();
    const response = await fetch(`${url}/api/public/v3/scores`, { headers: { authorization: `Basic ${Buffer.from('pk-lf-cli:sk-lf-cli').toString('base64')}` } });
    expect(((await response.json()) as { data: Array<{ id: string; value: unknown }> }).data).toEqual([expect.objectContaining({ id: 's1', value: true })]);
    child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  });

  it('prints its usage and exits 2 without the keys', async () => {
    const child = run(['--scores', join(dir, 'none.jsonl')], {});
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'close');
    expect(code).toBe(2);
    expect(stderr).toBe('usage: LANGFUSE_PUBLIC_KEY=… LANGFUSE_SECRET_KEY=… parley-fake-langfuse --scores FILE [--port N]\n');
  });

  it('exits 2 naming the problem when the scores file cannot be read', async () => {
    const child = run(['--scores', join(dir, 'missing.jsonl')], KEYS);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'close');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^parley-fake-langfuse: ENOENT: no such file or directory, open '.*missing\.jsonl'\n$/);
  });
});
