import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '@parley/core';
import { startFakeLangfuse, type FakeLangfuse } from '@parley/fake-langfuse';
import { afterEach, describe, expect, it } from 'vitest';
import { langfuseClient } from './langfuse-client.js';
import { LangfuseError } from './langfuse-errors.js';
import { langfuseFromEnv } from './langfuse-target.js';

const KEYS = { publicKey: 'pk-lf-client-1', secretKey: 'sk-lf-client-SECRET-2' };

let fake: FakeLangfuse | undefined;
let silent: Server | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  if (silent) {
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent!.close(() => resolve()));
    silent = undefined;
  }
});

/** A server that takes requests and never answers them (a hung Langfuse). */
async function hungServer(): Promise<string> {
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
}

describe('langfuseClient', () => {
  it('retries 429 and 5xx with full jitter, never waiting less than Retry-After', async () => {
    fake = await startFakeLangfuse({ ...KEYS, scores: [], faults: [{ path: '/api/public/traces', status: 429, times: 1, retryAfter: '2' }, { path: '/api/public/traces', status: 503, times: 1 }] });
    const waits: number[] = [];
    const client = langfuseClient({ baseUrl: fake.url, ...KEYS }, { random: () => 0.5, sleep: async (milliseconds) => void waits.push(milliseconds) });
    await expect(client.get('/api/public/traces', { limit: '10' })).resolves.toMatchObject({ data: [] });
    // attempt 1: 0.5 × 500 ms of jitter, but Retry-After asks 2 s; attempt 2: 0.5 × 1000 ms.
    expect(waits).toEqual([2000, 500]);
  });

  it('names the connect timeout when no answer comes, retries, then gives up saying how often it tried', async () => {
    const url = await hungServer();
    const client = langfuseClient({ baseUrl: url, ...KEYS }, { connectTimeoutMs: 50, retry: { maxRetries: 1 }, sleep: async () => undefined });
    const error = await client.get('/api/public/traces').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LangfuseError);
    expect((error as LangfuseError).kind).toBe('timeout');
    expect((error as Error).message).toBe(`Langfuse at ${url} did not answer GET /api/public/traces within 50 ms (the connect timeout, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS) (gave up after 2 attempts)`);
  });

  it('names the total timeout when the whole call, retries included, takes too long', async () => {
    const url = await hungServer();
    const client = langfuseClient({ baseUrl: url, ...KEYS, connectTimeoutMs: 10_000, totalTimeoutMs: 80 });
    await expect(client.post('/api/public/scores', { name: 'x' })).rejects.toThrow(
      new LangfuseError('timeout', `Langfuse at ${url} did not finish POST /api/public/scores within 80 ms (the total timeout, PARLEY_LANGFUSE_TIMEOUT_MS)`),
    );
  });

  it('never shows the keys, even when Langfuse echoes them back, and refused keys are a ConfigError at once', async () => {
    const echo: typeof fetch = async (_input, init) => new Response(`bad request from ${String((init?.headers as Record<string, string>).authorization)} ${KEYS.secretKey}`, { status: 400 });
    const client = langfuseClient({ baseUrl: 'http://langfuse.internal', ...KEYS }, { fetch: echo });
    const message = await client.get('/api/public/traces').catch((error: Error) => error.message);
    expect(message).toMatch(/^Langfuse at http:\/\/langfuse\.internal answered HTTP 400 to GET \/api\/public\/traces: bad request from Basic <secret> <secret>$/);
    fake = await startFakeLangfuse({ ...KEYS, scores: [] });
    let calls = 0;
    const counting: typeof fetch = (input, init) => ((calls += 1), fetch(input, init));
    const refused = await langfuseClient({ baseUrl: fake.url, publicKey: KEYS.publicKey, secretKey: 'sk-lf-wrong' }, { fetch: counting }).get('/api/public/traces').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect(String(refused)).not.toContain('sk-lf-wrong');
    expect(calls).toBe(1);
  });

  it('reads numbered pages until the last one', async () => {
    const traces = Array.from({ length: 5 }, (_, index) => ({ id: `t${index}`, timestamp: `2026-11-26T10:0${index}:00.000Z` }));
    fake = await startFakeLangfuse({ ...KEYS, scores: [], productionTraces: traces });
    const client = langfuseClient({ baseUrl: fake.url, ...KEYS });
    const pages: string[][] = [];
    for await (const page of client.pages('/api/public/traces', { orderBy: 'timestamp.asc' }, 2)) pages.push(page.map((trace) => (trace as { id: string }).id));
    expect(pages).toEqual([['t0', 't1'], ['t2', 't3'], ['t4']]);
  });
});

describe('langfuseFromEnv', () => {
  it('reads Langfuse\'s own variables, LANGFUSE_BASE_URL as newer SDKs do, without a trailing slash', () => {
    expect(langfuseFromEnv({ LANGFUSE_HOST: 'https://lf.example.com/', LANGFUSE_PUBLIC_KEY: 'pk', LANGFUSE_SECRET_KEY: 'sk' })).toEqual({ baseUrl: 'https://lf.example.com', publicKey: 'pk', secretKey: 'sk' });
    expect(langfuseFromEnv({ LANGFUSE_BASE_URL: 'https://eu.lf.example.com', LANGFUSE_PUBLIC_KEY: 'pk', LANGFUSE_SECRET_KEY: 'sk' }).baseUrl).toBe('https://eu.lf.example.com');
    expect(langfuseFromEnv({ LANGFUSE_PUBLIC_KEY: 'pk', LANGFUSE_SECRET_KEY: 'sk' }, 'http://localhost:3000').baseUrl).toBe('http://localhost:3000');
  });

  it('names every missing variable, and reads the two timeouts', () => {
    expect(() => langfuseFromEnv({ LANGFUSE_PUBLIC_KEY: 'pk' })).toThrow('exporting to Langfuse needs LANGFUSE_HOST, LANGFUSE_SECRET_KEY in the environment');
    const env = { LANGFUSE_HOST: 'http://lf', LANGFUSE_PUBLIC_KEY: 'pk', LANGFUSE_SECRET_KEY: 'sk' };
    expect(langfuseFromEnv({ ...env, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS: '2000', PARLEY_LANGFUSE_TIMEOUT_MS: '30000' })).toMatchObject({ connectTimeoutMs: 2000, totalTimeoutMs: 30_000 });
    expect(() => langfuseFromEnv({ ...env, PARLEY_LANGFUSE_TIMEOUT_MS: '30s' })).toThrow('PARLEY_LANGFUSE_TIMEOUT_MS must be a positive whole number of milliseconds (got "30s")');
  });

  it('refuses a base URL with credentials in it without showing them (fetch would quote the whole URL), and one that is not http(s)', () => {
    const keys = { LANGFUSE_PUBLIC_KEY: 'pk', LANGFUSE_SECRET_KEY: 'sk' };
    const refusal = (() => {
      try {
        langfuseFromEnv({ ...keys, LANGFUSE_HOST: 'https://admin:hunter2-SECRET@lf.example.com' });
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(refusal?.message).toBe("LANGFUSE_HOST holds credentials (user:password@): remove them; Langfuse takes the project's keys from LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY");
    expect(() => langfuseFromEnv(keys, 'http://u:p@localhost:3000')).toThrow(/^the Langfuse URL holds credentials/);
    expect(() => langfuseFromEnv({ ...keys, LANGFUSE_BASE_URL: 'langfuse.internal' })).toThrow('LANGFUSE_BASE_URL is not a URL');
    expect(() => langfuseFromEnv({ ...keys, LANGFUSE_HOST: 'ftp://lf.example.com' })).toThrow('LANGFUSE_HOST must be an http:// or https:// URL');
  });
});
