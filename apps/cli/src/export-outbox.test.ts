import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { startFakeLangfuse, type FakeLangfuse } from '@parley/fake-langfuse';
import { afterEach, describe, expect, it } from 'vitest';
import { copyExample, REPO_ROOT } from './test-support/example-copy.js';
import { parleyAsync } from './test-support/parley-process.js';

const KEYS = { LANGFUSE_PUBLIC_KEY: 'pk-lf-export-outbox', LANGFUSE_SECRET_KEY: 'sk-lf-export-outbox' };
const TRACES = '/api/public/otel/v1/traces';

const started: FakeLangfuse[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});

/** fake-langfuse on `port` (0: any); `down` answers every trace upload 503. */
async function langfuseOn(port: number, down: boolean): Promise<FakeLangfuse> {
  const server = await startFakeLangfuse({ port, ...{ publicKey: KEYS.LANGFUSE_PUBLIC_KEY, secretKey: KEYS.LANGFUSE_SECRET_KEY }, scores: [], ...(down ? { faults: [{ path: TRACES, status: 503, times: 1_000 }] } : {}) });
  started.push(server);
  return server;
}

describe('run exports Langfuse did not take stay in the outbox (the real binary, fake-langfuse down then back)', () => {
  it('the next run --export to it sends them after its own, export --flush sends what is left, and nothing twice', async () => {
    const work = copyExample('booking');
    const down = await langfuseOn(0, true);
    const port = Number(new URL(down.url).port);
    const env = { ...KEYS, LANGFUSE_HOST: down.url };
    const run = ['run', '.', '--export', 'langfuse', '--scenario', 'spa_booking_*'];

    const failed = await parleyAsync([...run, '--out', 'first'], { cwd: work, env });
    // The gate's exit code stands; the export is said to be pending.
    expect(failed.status, failed.stderr).toBe(0);
    expect(failed.stderr).toContain('export failed');
    expect(failed.stderr).toContain('the export stays pending');
    const firstId = (JSON.parse(readFileSync(join(work, 'first', 'report.json'), 'utf8')) as { run_id: string }).run_id;
    await down.close();
    started.splice(0);

    const back = await langfuseOn(port, false);
    const second = await parleyAsync([...run, '--out', 'second'], { cwd: work, env });
    expect(second.status, second.stderr).toBe(0);
    const exported = [...second.stdout.matchAll(/exported run (\S+): 3 traces/g)].map((match) => match[1]);
    // Its own run first, then the one the first run could not deliver.
    expect(exported).toHaveLength(2);
    expect(exported[1]).toBe(firstId);
    expect(back.traces()).toHaveLength(6);
    const uploads = back.requests.filter((request) => request.path === TRACES).length;

    const flushed = await parleyAsync(['export', '--flush', '--to', 'langfuse'], { cwd: work, env });
    expect(flushed.status, flushed.stderr).toBe(0);
    expect(flushed.stdout).toBe(`0 pending exports to langfuse ${back.url}\n`);
    expect(back.requests.filter((request) => request.path === TRACES)).toHaveLength(uploads);
  }, 180_000);

  it('export --flush sends a pending export once; a run id with --flush is refused (exit 2)', async () => {
    const work = copyExample('booking');
    const down = await langfuseOn(0, true);
    const port = Number(new URL(down.url).port);
    const env = { ...KEYS, LANGFUSE_HOST: down.url };
    const failed = await parleyAsync(['run', '.', '--export', 'langfuse', '--scenario', 'spa_booking_*', '--out', 'first'], { cwd: work, env });
    expect(failed.stderr).toContain('the export stays pending');
    await down.close();
    started.splice(0);

    const back = await langfuseOn(port, false);
    const flushed = await parleyAsync(['export', '--flush', '--to', 'langfuse'], { cwd: work, env });
    expect(flushed.status, flushed.stderr).toBe(0);
    expect(flushed.stdout).toMatch(new RegExp(`^1 pending export to langfuse ${back.url}\\nexported run \\S+: 3 traces`));
    expect(back.traces()).toHaveLength(3);
    const again = await parleyAsync(['export', '--flush', '--to', 'langfuse'], { cwd: work, env });
    expect(again.stdout).toBe(`0 pending exports to langfuse ${back.url}\n`);
    expect(back.traces()).toHaveLength(3);

    const refused = await parleyAsync(['export', 'some-run', '--flush', '--to', 'langfuse'], { cwd: work, env });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--flush sends the pending exports as they were asked');
  }, 180_000);

  it('run --export killed (SIGKILL) while Langfuse holds the upload: the export waits in the outbox and --flush delivers it', async () => {
    const work = copyExample('booking');
    // A Langfuse that takes the connection and never answers, counting the connections.
    const held: Socket[] = [];
    const hung = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const port = (hung.address() as { port: number }).port;
    const env = { ...KEYS, LANGFUSE_HOST: `http://127.0.0.1:${port}` };
    const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/bin/parley.js'), 'run', '.', '--export', 'langfuse', '--scenario', 'spa_booking_*', '--out', 'killed'], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
      stdio: 'ignore',
    });
    const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));
    child.kill('SIGKILL');
    expect(await closed).toBe('SIGKILL');
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => hung.close(() => resolve()));

    const back = await langfuseOn(port, false);
    const flushed = await parleyAsync(['export', '--flush', '--to', 'langfuse'], { cwd: work, env });
    expect(flushed.status, flushed.stderr).toBe(0);
    const runId = (JSON.parse(readFileSync(join(work, 'killed', 'report.json'), 'utf8')) as { run_id: string }).run_id;
    expect(flushed.stdout).toMatch(new RegExp(`^1 pending export to langfuse ${back.url}\\nexported run ${runId}: 3 traces`));
    expect(back.traces()).toHaveLength(3);
  }, 180_000);

  /** A Langfuse on port `on` (0: any) that takes connections and never answers, counting them; `close()` drops them. */
  async function hungLangfuse(on = 0) {
    const held: Socket[] = [];
    const server = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => server.listen(on, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    return {
      held,
      port,
      close: async () => {
        for (const socket of held) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  /** `parley args` started in `cwd`; stopped with `signal` the moment Langfuse holds its first upload. */
  async function stoppedWhileUploading(cwd: string, args: string[], env: NodeJS.ProcessEnv, held: Socket[], signal: NodeJS.Signals) {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/bin/parley.js'), ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (status, killedBy) => resolve({ status, signal: killedBy })));
    while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));
    child.kill(signal);
    return { ...(await closed), stdout: () => stdout, stderr: () => stderr };
  }

  it('two export --flush at once: the second leaves what the first claimed; a killed sender\'s exports go to the next flush', async () => {
    const work = copyExample('booking');
    const down = await langfuseOn(0, true);
    const downEnv = { ...KEYS, LANGFUSE_HOST: down.url };
    for (const out of ['first', 'second']) {
      const failed = await parleyAsync(['run', '.', '--export', 'langfuse', '--scenario', 'spa_booking_*', '--out', out], { cwd: work, env: downEnv });
      expect(failed.stderr).toContain('the export stays pending');
    }
    await down.close();
    started.splice(0);

    // The same host and port (the outbox keeps exports per destination), now holding every upload.
    const hung = await hungLangfuse(Number(new URL(down.url).port));
    const env = { ...KEYS, LANGFUSE_HOST: down.url, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS: '600000', PARLEY_LANGFUSE_TIMEOUT_MS: '600000' };
    const first = spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/bin/parley.js'), 'export', '--flush', '--to', 'langfuse'], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
      stdio: 'ignore',
    });
    const firstClosed = new Promise<NodeJS.Signals | null>((resolve) => first.on('close', (_code, signal) => resolve(signal)));
    // The first flush has claimed both and holds its first upload.
    while (hung.held.length === 0) await new Promise((resolve) => setImmediate(resolve));

    // Short timeouts: a second flush that sent anyway would fail fast instead of hanging.
    const second = await parleyAsync(['export', '--flush', '--to', 'langfuse'], { cwd: work, env: { ...env, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS: '2000', PARLEY_LANGFUSE_TIMEOUT_MS: '2000' } });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toBe(`0 pending exports to langfuse ${down.url} (2 more being sent by another parley process)\n`);
    expect(hung.held, 'the second flush sent nothing').toHaveLength(1);

    first.kill('SIGKILL');
    expect(await firstClosed).toBe('SIGKILL');
    await hung.close();
    const back = await langfuseOn(hung.port, false);
    const flushed = await parleyAsync(['export', '--flush', '--to', 'langfuse'], { cwd: work, env });
    expect(flushed.status, flushed.stderr).toBe(0);
    expect(flushed.stdout).toMatch(new RegExp(`^2 pending exports to langfuse ${back.url}\\n`));
    expect(back.traces()).toHaveLength(6);
  }, 180_000);

  for (const [signal, code, command] of [
    ['SIGINT', 130, 'export'],
    ['SIGTERM', 143, 'export'],
    ['SIGINT', 130, 'run --export'],
    ['SIGTERM', 143, 'run --export'],
  ] as const) {
    it(`${command} stopped by ${signal} while Langfuse holds the upload: exit ${code} at once, the export stays pending, --flush delivers it once`, async () => {
      const work = copyExample('booking');
      const hung = await hungLangfuse();
      // Long timeouts: the signal, not a timeout, ends the upload.
      const env = { ...KEYS, LANGFUSE_HOST: `http://127.0.0.1:${hung.port}`, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS: '600000', PARLEY_LANGFUSE_TIMEOUT_MS: '600000' };
      const select = ['--scenario', 'spa_booking_*'];
      let args: string[];
      if (command === 'export') {
        const ran = await parleyAsync(['run', '.', ...select, '--out', 'ran'], { cwd: work });
        expect(ran.status, ran.stderr).toBe(0);
        args = ['export', 'ran', '--to', 'langfuse'];
      } else args = ['run', '.', '--export', 'langfuse', ...select, '--out', 'ran'];

      const stopped = await stoppedWhileUploading(work, args, env, hung.held, signal);
      await hung.close();
      expect(stopped.signal).toBeNull();
      expect(stopped.status, stopped.stderr()).toBe(code);
      expect(stopped.stderr()).toContain(`stopped by ${signal}`);
      expect(stopped.stderr()).toContain('the export stays pending');
      expect(stopped.stderr()).not.toMatch(/internal error|\n\s+at /);
      expect(stopped.stdout()).not.toContain('exported run');

      const back = await langfuseOn(hung.port, false);
      const runId = (JSON.parse(readFileSync(join(work, 'ran', 'report.json'), 'utf8')) as { run_id: string }).run_id;
      const flushed = await parleyAsync(['export', '--flush', '--to', 'langfuse'], { cwd: work, env });
      expect(flushed.status, flushed.stderr).toBe(0);
      expect(flushed.stdout).toMatch(new RegExp(`^1 pending export to langfuse ${back.url}\\nexported run ${runId}: 3 traces`));
      expect(back.traces()).toHaveLength(3);
      const again = await parleyAsync(['export', '--flush', '--to', 'langfuse'], { cwd: work, env });
      expect(again.stdout).toBe(`0 pending exports to langfuse ${back.url}\n`);
      expect(back.traces(), 'delivered once').toHaveLength(3);
    }, 180_000);
  }
});
