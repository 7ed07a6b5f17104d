import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpAgent } from './http-agent.js';
import { serviceProvider } from './service-provider.js';

const seen: Array<{ headers: IncomingHttpHeaders; body: unknown }> = [];
let url = '';
const server = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () => {
    const body = JSON.parse(text) as { message: string };
    seen.push({ headers: request.headers, body });
    if (body.message === 'crash') response.writeHead(500).end('Traceback: KeyError tenant');
    else if (body.message === 'html') response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Welcome</h1>');
    else response.writeHead(200).end(JSON.stringify({ answer: { text: `got ${body.message}` }, step: 'greeting' }));
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const session = { conversation_id: 'conv_abc', tenant: 'test_tenant_s_00112233', scenario_id: 's', run_id: 'run_1' };
const context = { role: 'agent' as const, scenario_id: 's', turn: 2 };
const messages = [
  { role: 'user' as const, content: 'Habari' },
  { role: 'assistant' as const, content: 'Karibu' },
];

describe('an http agent through the service provider', () => {
  it('posts the default body with history and session headers, and maps the answer', async () => {
    const provider = serviceProvider({
      transport: httpAgent({ url, headers: { authorization: 'Bearer t0k' }, session, timeoutMs: 5000 }),
      session,
      responseMapping: { reply: 'answer.text', state: 'step' },
    });
    const answer = await provider.complete({ provider: 'service', model: 'svc', messages: [...messages, { role: 'user', content: 'Saa nne' }] }, context);
    expect(answer).toMatchObject({ content: 'got Saa nne', tool_calls: [], state: 'greeting', usage: { input_tokens: 0, output_tokens: 0 } });
    const request = seen.at(-1)!;
    expect(request.body).toEqual({ ...{ conversation_id: 'conv_abc', tenant: 'test_tenant_s_00112233', scenario_id: 's' }, turn: 2, message: 'Saa nne', history: messages });
    expect(request.headers).toMatchObject({
      'x-parley-conversation-id': 'conv_abc',
      'x-parley-tenant': 'test_tenant_s_00112233',
      'x-parley-scenario-id': 's',
      'x-parley-run-id': 'run_1',
      authorization: 'Bearer t0k',
      'content-type': 'application/json',
    });
  });

  it('fails with the status and body of a non-2xx answer, and with the body of a non-JSON one', async () => {
    const provider = serviceProvider({ transport: httpAgent({ url, headers: {}, session, timeoutMs: 5000 }), session });
    const ask = (message: string) =>
      provider.complete({ provider: 'service', model: 'svc', messages: [{ role: 'user', content: message }] }, context).catch((error: unknown) => error);
    expect(await ask('crash')).toMatchObject({ kind: 'agent', status: 500, message: `agent at ${url} answered HTTP 500`, details: 'Traceback: KeyError tenant' });
    expect(await ask('html')).toMatchObject({ kind: 'agent', message: `agent at ${url} answered with a body that is not JSON`, details: '<h1>Welcome</h1>' });
    expect(await ask('fine')).toMatchObject({ kind: 'agent', message: 'the agent\'s answer has no text at "reply" (found nothing)', details: expect.stringContaining('got fine') });
  });
});
