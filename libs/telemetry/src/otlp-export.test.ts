import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { floorRedactor } from '@parley/redaction';
import { afterEach, describe, expect, it } from 'vitest';
import { ExportError } from './export-errors.js';
import { exportRun } from './export-run.js';
import { otlpSettings } from './otlp-settings.js';
import { startMockOtlpReceiver, type MockOtlpReceiver } from './test-support/mock-otlp-receiver.js';
import { sampleReport } from './test-support/sample-report.js';

/**
 * The export against a receiver no one here wrote: Elastic's mockotlpserver decodes OTLP/HTTP in
 * both encodings with its own copy of the official .proto files, and only on the signal paths
 * (`/v1/traces`): a request to `/` is answered 200 and decoded as nothing, as a lenient collector does.
 */
interface Received {
  path: string;
  contentType: string | undefined;
  spans: Array<{ traceId: string; spanId: string; name: string; attributes: Record<string, { type: string; value: unknown }>; events: Array<{ name: string; attributes: Record<string, { type: string; value: unknown }> }> }>;
}

let server: MockOtlpReceiver | undefined;
let plain: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (plain) {
    plain.closeAllConnections();
    await new Promise<void>((resolve) => plain!.close(() => resolve()));
    plain = undefined;
  }
});

async function startMock(): Promise<{ base: string; received: Received[]; requests: MockOtlpReceiver['requests'] }> {
  server = await startMockOtlpReceiver();
  const decoded = server.received;
  return {
    base: server.base,
    requests: server.requests,
    // Read when asked: the receiver decodes after it answers.
    get received() {
      return decoded.map((trace) => ({ path: '/v1/traces', contentType: undefined, spans: spansOf(trace) }));
    },
  };
}

function exportTo(to: string | undefined, env: NodeJS.ProcessEnv) {
  return exportRun({
    report: sampleReport(),
    redactor: floorRedactor(),
    parleyVersion: '0.1.0',
    destination: { kind: 'otlp', otlp: otlpSettings(to, env) },
    spans: { sleep: async () => {} },
  });
}

describe('parley export --to otlp against @elastic/mockotlpserver', () => {
  for (const protocol of ['http/protobuf', 'http/json'] as const) {
    for (const form of ['base URL', 'full URL'] as const) {
      it(`${protocol}, ${form}: the receiver decodes every span at /v1/traces with the types the conventions give`, async () => {
        const mock = await startMock();
        const url = form === 'base URL' ? mock.base : `${mock.base}/v1/traces`;
        const summary = await exportTo(url, { OTEL_EXPORTER_OTLP_PROTOCOL: protocol });
        expect(summary.destination).toBe(`the OTLP endpoint ${mock.base}/v1/traces`);
        expect(mock.requests).toEqual([{ path: '/v1/traces', contentType: protocol === 'http/protobuf' ? 'application/x-protobuf' : 'application/json' }]);
        expect(mock.received).toHaveLength(1);
        const spans = mock.received[0]!.spans;
        expect(spans).toHaveLength(summary.spans);
        // Two conversations: the prompt agent's (root, 2 agent calls, 1 judge) and the http agent's (root, 2 turns).
        expect(spans.map((span) => span.name)).toEqual([
          'invoke_agent booking',
          'chat gpt-4.1-mini',
          'chat gpt-4.1-mini',
          'chat claude-sonnet-4-6',
          'invoke_agent receptionist_http',
          'invoke_agent receptionist_http',
          'invoke_agent receptionist_http',
        ]);
        const root = spans[0]!;
        expect(root.attributes['gen_ai.operation.name']).toEqual({ type: 'stringValue', value: 'invoke_agent' });
        expect(root.attributes['gen_ai.agent.name']).toEqual({ type: 'stringValue', value: 'booking' });
        // Whole scores too are doubles (1.0, 0.0), as the convention types them.
        expect(root.events.map((event) => [event.attributes['gen_ai.evaluation.name']?.value, event.attributes['gen_ai.evaluation.score.value']])).toEqual([
          ['conversation_judge', { type: 'doubleValue', value: 0.9 }],
          ['content_signals', { type: 'doubleValue', value: 0 }],
          ['tool_correctness', { type: 'doubleValue', value: 1 }],
        ]);
        expect(spans[1]!.attributes['gen_ai.usage.input_tokens']).toEqual({ type: 'intValue', value: 10 });
        // What the provider answered and where it was: the model that answered, its own stop reason
        // (a string array), the endpoint's host and its port (an int), never a path or credentials.
        expect(pick(spans[1]!, RESPONSE_ATTRIBUTES)).toEqual({
          'gen_ai.response.model': { type: 'stringValue', value: 'gpt-4.1-mini-2025-04-14' },
          'gen_ai.response.finish_reasons': { type: 'arrayValue', value: ['tool_calls'] },
          'server.address': { type: 'stringValue', value: 'api.openai.com' },
          'server.port': { type: 'intValue', value: 443 },
        });
        expect(pick(spans[3]!, RESPONSE_ATTRIBUTES)).toEqual({
          'gen_ai.response.model': { type: 'stringValue', value: 'claude-sonnet-4-6' },
          'gen_ai.response.finish_reasons': { type: 'arrayValue', value: ['end_turn'] },
          'server.address': { type: 'stringValue', value: '127.0.0.1' },
          'server.port': { type: 'intValue', value: 8787 },
        });
        // A call whose report kept none of it: no empty or made-up values; the stop reason its output message gives.
        expect(pick(spans[2]!, RESPONSE_ATTRIBUTES)).toEqual({ 'gen_ai.response.finish_reasons': { type: 'arrayValue', value: ['stop'] } });
        // An http agent's turns are no model calls: no answering model or provider endpoint.
        for (const span of spans.slice(5)) expect(Object.keys(pick(span, RESPONSE_ATTRIBUTES))).toEqual(['gen_ai.response.finish_reasons']);
        const output = JSON.parse(String(spans[1]!.attributes['gen_ai.output.messages']?.value)) as unknown;
        // Tool arguments are masked like the report's (the redactor hashes them): the part is a tool call all the same.
        expect(output).toEqual([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'check_availability', arguments: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } }], finish_reason: 'tool_call' }]);
        expect(spans[5]!.attributes['gen_ai.operation.name']?.value).toBe('invoke_agent');
        expect(JSON.parse(String(spans[6]!.attributes['gen_ai.output.messages']?.value))).toEqual([
          { role: 'assistant', parts: [{ type: 'text', content: 'Booked: BK-77' }, { type: 'tool_call', id: null, name: 'create_booking', arguments: { sha256: expect.any(String) } }], finish_reason: 'tool_call' },
        ]);
      });
    }
  }

  it('honours OTEL_EXPORTER_OTLP_ENDPOINT (base, v1/traces appended) and OTEL_EXPORTER_OTLP_HEADERS', async () => {
    const mock = await startMock();
    let headers: Record<string, string> = {};
    const summary = await exportRun({
      report: sampleReport(),
      redactor: floorRedactor(),
      parleyVersion: '0.1.0',
      destination: { kind: 'otlp', otlp: otlpSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: mock.base, OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=ratiba,authorization=Bearer%20t0ken' }) },
      spans: {
        fetch: (input, init) => {
          headers = init?.headers as Record<string, string>;
          return fetch(input, init);
        },
      },
    });
    expect(summary.destination).toBe(`the OTLP endpoint ${mock.base}/v1/traces`);
    expect(headers).toMatchObject({ 'x-tenant': 'ratiba', authorization: 'Bearer t0ken', 'content-type': 'application/x-protobuf' });
    expect(mock.received).toHaveLength(1);
  });
});

describe('what a collector answers', () => {
  async function collector(status: number, body: string, contentType = 'application/json'): Promise<string> {
    plain = createServer((request, response) => {
      request.resume().on('end', () => response.writeHead(status, { 'content-type': contentType }).end(body));
    });
    await new Promise<void>((resolve) => plain!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  }

  it('a partial success with rejected spans is an export error naming how many and why', async () => {
    const base = await collector(200, JSON.stringify({ partialSuccess: { rejectedSpans: '2', errorMessage: 'attribute value too long' } }));
    await expect(exportTo(base, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).rejects.toThrow(
      new ExportError(`the OTLP endpoint ${base}/v1/traces rejected 2 of 7 spans: attribute value too long`),
    );
  });

  it('a refusal is an export error with the status and the collector\'s message, not retried', async () => {
    const base = await collector(400, JSON.stringify({ code: 3, message: 'unknown field' }));
    await expect(exportTo(`${base}/otlp/v1/traces`, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).rejects.toThrow(
      new ExportError(`sending traces to the OTLP endpoint ${base}/otlp/v1/traces failed (HTTP 400: unknown field)`),
    );
  });
});

describe('a collector that echoes the request\'s credentials in its error', () => {
  const secret = 'otlp-secret-WALKSAFETY-0123456789';
  const basic = Buffer.from(`team-public:${secret}`).toString('base64');

  async function echoingCollector(status: number): Promise<string> {
    plain = createServer((request, response) => {
      request.resume().on('end', () =>
        response
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ code: 16, message: `no tenant for ${request.headers.authorization} (password ${secret}), api key ${request.headers['x-api-key']}` })),
      );
    });
    await new Promise<void>((resolve) => plain!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  }

  it.each([400, 500])('HTTP %i: the error names the status and the message with every credential masked', async (status) => {
    const base = await echoingCollector(status);
    const env = { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_HEADERS: `authorization=Basic ${basic},x-api-key=key-WALKSAFETY-abcdefgh` };
    const error = await exportTo(base, env).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExportError);
    const message = (error as ExportError).message;
    expect(message).toContain(`HTTP ${status}: no tenant for <secret> (password <secret>), api key <secret>`);
    for (const leaked of [basic, secret, 'key-WALKSAFETY-abcdefgh', 'WALKSAFETY']) expect(message).not.toContain(leaked);
  });
});

const RESPONSE_ATTRIBUTES = ['gen_ai.response.model', 'gen_ai.response.id', 'gen_ai.response.finish_reasons', 'server.address', 'server.port'];

/** Those of `keys` the span has. */
function pick(span: Received['spans'][number], keys: readonly string[]): Record<string, { type: string; value: unknown }> {
  return Object.fromEntries(keys.flatMap((key) => (span.attributes[key] !== undefined ? [[key, span.attributes[key]]] : [])));
}

/** The spans of a decoded ExportTraceServiceRequest, whether the receiver decoded JSON or protobuf. */
function spansOf(request: unknown): Received['spans'] {
  const resources = (request as { resourceSpans: Array<{ scopeSpans: Array<{ spans: unknown[] }> }> }).resourceSpans;
  return resources.flatMap((resource) =>
    resource.scopeSpans.flatMap((scope) =>
      scope.spans.map((raw) => {
        const span = raw as { traceId: unknown; spanId: unknown; name: string; attributes: unknown[]; events?: Array<{ name: string; attributes: unknown[] }> };
        return { traceId: hex(span.traceId), spanId: hex(span.spanId), name: span.name, attributes: attributesOf(span.attributes), events: (span.events ?? []).map((event) => ({ name: event.name, attributes: attributesOf(event.attributes) })) };
      }),
    ),
  );
}

function hex(id: unknown): string {
  return typeof id === 'string' ? id : Buffer.from(id as Uint8Array).toString('hex');
}

/** Each attribute's value with the AnyValue field it came in (own fields only: protobufjs puts defaults on prototypes). */
function attributesOf(list: unknown[]): Record<string, { type: string; value: unknown }> {
  const attributes: Record<string, { type: string; value: unknown }> = {};
  for (const item of list as Array<{ key: string; value: Record<string, unknown> }>) {
    const type = Object.keys(item.value).find((key) => key.endsWith('Value'))!;
    const raw = item.value[type];
    attributes[item.key] = { type, value: type === 'intValue' ? Number(String(raw)) : type === 'arrayValue' ? arrayOf(raw) : raw };
  }
  return attributes;
}

/** An ArrayValue's string values (Parley sends string arrays only). */
function arrayOf(raw: unknown): unknown[] {
  return ((raw as { values?: Array<Record<string, unknown>> }).values ?? []).map((value) => value['stringValue']);
}
