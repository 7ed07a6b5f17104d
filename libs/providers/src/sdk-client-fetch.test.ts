import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySdkClient } from './sdk-client.js';

/**
 * The fetch the SDK clients are given (sdk-client.ts): a text or byte body goes through undici's
 * `request` and comes back as a Response. What an SDK reads of it must be what fetch gives:
 * status, every header, the exact bytes, no body where the status allows none, redirects followed,
 * an abort that rejects as an AbortError.
 */
type SdkFetch = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

let server: Server;
let base: string;
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];

function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
  if (request.url === '/json') {
    response.setHeader('set-cookie', ['a=1', 'b=2']);
    response.setHeader('x-request-id', 'req_1');
    response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: body }));
  } else if (request.url === '/bytes') response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 255, 10, 13, 0xc3]));
  else if (request.url === '/empty') response.writeHead(204).end();
  else if (request.url === '/moved') response.writeHead(307, { location: '/json' }).end();
  else if (request.url === '/limited') response.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' }).end('{"error":{"message":"slow down"}}');
  // '/hang' never answers
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => answer(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The fetch lazySdkClient gives an SDK constructor. */
async function sdkFetch(): Promise<SdkFetch> {
  const client = lazySdkClient(
    async () =>
      class {
        readonly fetch: SdkFetch;
        constructor(options: { fetch: SdkFetch }) {
          this.fetch = options.fetch;
        }
      },
    { apiKey: 'sk-test' },
  );
  return (await client()).fetch;
}

describe('the SDK clients’ fetch', () => {
  it('sends the method, headers and text body, and answers with the status, every header and the body', async () => {
    const fetch = await sdkFetch();
    const response = await fetch(`${base}/json`, { method: 'POST', headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer sk-test' }), body: '{"model":"m"}' });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ echoed: '{"model":"m"}' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{"model":"m"}', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' } });
  });

  it('takes headers as a plain object too, and gives bytes back exactly', async () => {
    const fetch = await sdkFetch();
    const response = await fetch(new URL(`${base}/bytes`), { method: 'GET', headers: { accept: 'application/octet-stream' } });
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([0, 255, 10, 13, 0xc3]);
    expect(seen.at(-1)!.headers['accept']).toBe('application/octet-stream');
  });

  it('gives no body for a 204, follows a redirect, and keeps an error status with its headers', async () => {
    const fetch = await sdkFetch();
    const empty = await fetch(`${base}/empty`, { method: 'DELETE' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const moved = await fetch(`${base}/moved`, { method: 'POST', body: 'again' });
    expect(moved.status).toBe(201);
    expect(await moved.json()).toEqual({ echoed: 'again' });
    const limited = await fetch(`${base}/limited`, { method: 'POST', body: '{}' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.text()).toBe('{"error":{"message":"slow down"}}');
  });

  it('rejects as an AbortError when the call is aborted', async () => {
    const fetch = await sdkFetch();
    const controller = new AbortController();
    const pending = fetch(`${base}/hang`, { method: 'POST', body: '{}', signal: controller.signal });
    await expect.poll(() => seen.some((request) => request.url === '/hang')).toBe(true);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
