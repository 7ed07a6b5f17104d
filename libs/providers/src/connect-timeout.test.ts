import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, type CallContext, type CompletionRequest, type ProviderKind } from '@parley/core';
import { createBatchClient } from './judge-batch.js';
import { createLiveProvider } from './live-provider.js';
import { ProviderError } from './provider-error.js';

/**
 * Provider calls against two hosts that never answer (issue 24, item 4): one that never takes the
 * connection, one that takes it and then says nothing. Every call ends, with a `timeout` error
 * that names the timeout that fired and how to change it; batch calls (submit and poll) too.
 *
 * A host that never takes a connection: a socket listening with a backlog of 0 whose one queued
 * connection is never accepted, so the kernel drops every later SYN and `connect` waits (the way a
 * firewall that drops packets behaves). Node accepts every connection it listens for, so the
 * listener is a small Python process (python3, as in CI's image).
 */
const NEVER_ACCEPTS = `
import socket, sys
server = socket.socket()
server.bind(('127.0.0.1', 0))
server.listen(0)
filler = socket.create_connection(server.getsockname())  # fills the accept queue
print(server.getsockname()[1], flush=True)
sys.stdin.read()  # until the test closes stdin
`;

let listener: ChildProcess;
let neverAcceptsPort: number;
let silent: Server;
const held: Socket[] = [];

beforeAll(async () => {
  listener = spawn('python3', ['-c', NEVER_ACCEPTS], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = await new Promise<string[]>((resolve, reject) => {
    listener.once('error', reject);
    createInterface({ input: listener.stdout! }).once('line', (text) => resolve([text]));
  });
  neverAcceptsPort = Number(line);
  // Takes every connection, reads the request, never answers.
  silent = createServer((socket) => {
    held.push(socket);
    socket.resume();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  listener?.stdin?.end();
  listener?.kill();
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
});

const context: CallContext = { role: 'agent', scenario_id: 'hang', turn: 1 };
const request = (provider: ProviderKind): CompletionRequest => ({ provider, model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hello?' }], max_tokens: 16 });
const silentUrl = () => `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
const neverUrl = () => `http://127.0.0.1:${neverAcceptsPort}`;

describe('provider calls have a connect and a total timeout, each named when it fires', () => {
  for (const kind of ['openai', 'anthropic'] as const) {
    it(`${kind}: a host that never takes the connection fails after PARLEY_CONNECT_TIMEOUT_MS, naming it`, async () => {
      const provider = createLiveProvider({ kind, baseUrl: neverUrl(), timeoutMs: 60_000 }, { OPENAI_API_KEY: 'sk-test-connect', ANTHROPIC_API_KEY: 'sk-ant-test-connect', PARLEY_CONNECT_TIMEOUT_MS: '300' });
      const started = Date.now();
      const error = await provider.complete(request(kind), context).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ kind: 'timeout' });
      expect((error as Error).message).toBe(`${kind} did not take the connection within 300 ms (the connect timeout, PARLEY_CONNECT_TIMEOUT_MS)`);
      expect(Date.now() - started).toBeLessThan(30_000); // far below the call's 60 s
    });

    it(`${kind}: a host that takes the connection and never answers fails after the call's timeout (the connect timeout does not cut a slow answer)`, async () => {
      const provider = createLiveProvider({ kind, baseUrl: silentUrl(), timeoutMs: 1_500 }, { OPENAI_API_KEY: 'sk-test-silent', ANTHROPIC_API_KEY: 'sk-ant-test-silent', PARLEY_CONNECT_TIMEOUT_MS: '200' });
      const error = await provider.complete(request(kind), context).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ kind: 'timeout' });
      expect((error as Error).message).toMatch(/timed out \(the call's timeout: settings\.timeout_ms/);
    });
  }

  it('batch judging: submitting to and polling a host that never takes the connection ends with the connect timeout named', async () => {
    const env = { OPENAI_API_KEY: 'sk-test-batch', ANTHROPIC_API_KEY: 'sk-ant-test-batch', PARLEY_CONNECT_TIMEOUT_MS: '250' };
    for (const kind of ['openai', 'anthropic'] as const) {
      const client = createBatchClient({ kind, baseUrl: neverUrl() }, env);
      const poll = await client.poll('batch_1').catch((caught: unknown) => caught);
      expect((poll as Error).message, kind).toBe(`${kind} did not take the connection within 250 ms (the connect timeout, PARLEY_CONNECT_TIMEOUT_MS)`);
      expect(poll, kind).toMatchObject({ kind: "timeout" });
      const submit = await client.submit([{ custom_id: 'k1', request: request(kind) }]).catch((caught: unknown) => caught);
      expect((submit as Error).message, kind).toBe(`${kind} did not take the connection within 250 ms (the connect timeout, PARLEY_CONNECT_TIMEOUT_MS)`);
    }
  });

  it('batch judging: a poll the host never answers ends after the call timeout', async () => {
    const client = createBatchClient({ kind: 'openai', baseUrl: silentUrl(), timeoutMs: 1_000 }, { OPENAI_API_KEY: 'sk-test-batch' });
    const poll = await client.poll('batch_1').catch((caught: unknown) => caught);
    expect(poll).toMatchObject({ kind: 'timeout' });
  });

  it('PARLEY_CONNECT_TIMEOUT_MS that is not a whole number of milliseconds is a configuration error naming it', () => {
    for (const value of ['soon', '0', '-5', '1.5']) {
      expect(() => createLiveProvider({ kind: 'openai' }, { OPENAI_API_KEY: 'sk-test', PARLEY_CONNECT_TIMEOUT_MS: value }), value).toThrow(ConfigError);
      expect(() => createLiveProvider({ kind: 'openai' }, { OPENAI_API_KEY: 'sk-test', PARLEY_CONNECT_TIMEOUT_MS: value }), value).toThrow(/PARLEY_CONNECT_TIMEOUT_MS/);
    }
  });
});
