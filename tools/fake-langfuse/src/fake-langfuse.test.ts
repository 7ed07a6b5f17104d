import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLangfuse, type FakeLangfuse, type FakeLangfuseOptions, type FakeScore } from './fake-langfuse.js';

const KEYS = { publicKey: 'pk-lf-test', secretKey: 'sk-lf-test' };
const AUTH = `Basic ${Buffer.from('pk-lf-test:sk-lf-test').toString('base64')}`;

let server: FakeLangfuse | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Partial<FakeLangfuseOptions> = {}): Promise<FakeLangfuse> {
  server = await startFakeLangfuse({ ...KEYS, scores: [], ...options });
  return server;
}

async function get(path: string, authorization = AUTH): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${server!.url}${path}`, { headers: { authorization } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

async function post(path: string, body: unknown, contentType = 'application/json'): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server!.url}${path}`, { method: 'POST', headers: { authorization: AUTH, 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Scores a minute apart, newest last: s1 … sN. */
function scores(count: number): FakeScore[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `s${index + 1}`,
    name: index % 2 === 0 ? 'conversation_judge' : 'user_thumbs',
    dataType: index % 2 === 0 ? 'NUMERIC' : 'BOOLEAN',
    value: index % 2 === 0 ? 0.5 + index / 100 : true,
    timestamp: new Date(Date.UTC(2026, 10, 26, 10, index)).toISOString(),
    traceId: `trace-${index + 1}`,
    ...(index === 0 ? { comment: 'warm' } : {}),
  }));
}

describe('the fake Langfuse: keys', () => {
  it('answers 401 to wrong keys and logs the request without its credentials', async () => {
    const fake = await start();
    const refused = await get('/api/public/v3/scores', `Basic ${Buffer.from('pk-lf-test:wrong').toString('base64')}`);
    expect(refused.status).toBe(401);
    expect(fake.requests).toEqual([{ path: '/api/public/v3/scores', query: {}, authorised: false, status: 401 }]);
    expect(JSON.stringify(fake.requests)).not.toContain('wrong');
  });
});

describe('the fake Langfuse: reading scores', () => {
  it('pages v3 scores newest first by cursor until the last page has none', async () => {
    await start({ scores: scores(5) });
    const first = await get('/api/public/v3/scores?limit=2');
    expect((first.body['data'] as FakeScore[]).map((score) => score.id)).toEqual(['s5', 's4']);
    const cursor = (first.body['meta'] as { cursor: string }).cursor;
    const second = await get(`/api/public/v3/scores?limit=2&cursor=${cursor}`);
    expect((second.body['data'] as FakeScore[]).map((score) => score.id)).toEqual(['s3', 's2']);
    const third = await get(`/api/public/v3/scores?limit=2&cursor=${(second.body['meta'] as { cursor: string }).cursor}`);
    expect((third.body['data'] as FakeScore[]).map((score) => score.id)).toEqual(['s1']);
    expect(third.body['meta']).toEqual({ limit: 2 });
  });

  it('filters by name and time, and adds the field groups asked for', async () => {
    await start({ scores: scores(5) });
    const { body } = await get('/api/public/v3/scores?name=conversation_judge&fromTimestamp=2026-11-26T10:01:00.000Z&fields=details,subject');
    expect(body['data']).toEqual([
      expect.objectContaining({ id: 's5', value: 0.54, dataType: 'NUMERIC', comment: null, subject: { kind: 'trace', id: 'trace-5' } }),
      expect.objectContaining({ id: 's3', value: 0.52, comment: null, subject: { kind: 'trace', id: 'trace-3' } }),
    ]);
    const bare = await get('/api/public/v3/scores?name=conversation_judge');
    expect((bare.body['data'] as Array<Record<string, unknown>>)[2]).not.toHaveProperty('comment');
    expect((bare.body['data'] as Array<Record<string, unknown>>)[2]).not.toHaveProperty('subject');
  });

  it('validates as the API does: limit 1–100 and known field groups only', async () => {
    await start();
    expect((await get('/api/public/v3/scores?limit=101')).status).toBe(400);
    expect((await get('/api/public/v3/scores?limit=0')).status).toBe(400);
    expect(await get('/api/public/v3/scores?fields=details,scores')).toMatchObject({ status: 400, body: { message: 'unknown field group "scores"' } });
  });

  it('serves the older numbered pages with numeric and string values, and plays an old deployment', async () => {
    await start({ scores: [...scores(3), { id: 'c1', name: 'tone', dataType: 'CATEGORICAL', value: 'warm', timestamp: '2026-11-26T09:00:00.000Z', sessionId: 'sess-1' }], legacyOnly: true });
    expect((await get('/api/public/v3/scores')).status).toBe(404);
    const { body } = await get('/api/public/scores?limit=3&page=2');
    expect(body['meta']).toEqual({ page: 2, limit: 3, totalItems: 4, totalPages: 2 });
    expect(body['data']).toEqual([expect.objectContaining({ id: 'c1', value: null, stringValue: 'warm', sessionId: 'sess-1', traceId: null })]);
    const first = await get('/api/public/scores?limit=3');
    expect((first.body['data'] as Array<Record<string, unknown>>).map((score) => [score['id'], score['value']])).toEqual([
      ['s3', 0.52],
      ['s2', 1],
      ['s1', 0.5],
    ]);
  });
});

describe('the fake Langfuse: receiving scores and traces', () => {
  it('keeps one score per id (a score sent again replaces it) and refuses what Langfuse refuses', async () => {
    const fake = await start();
    expect(await post('/api/public/scores', { id: 'x', name: 'conversation_judge', value: 0.6, traceId: 't1', comment: 'first' })).toEqual({ status: 200, body: { id: 'x' } });
    await post('/api/public/scores', { id: 'x', name: 'conversation_judge', value: 0.9, traceId: 't1', comment: 'second' });
    expect(fake.scores()).toEqual([expect.objectContaining({ id: 'x', value: 0.9, comment: 'second', dataType: 'NUMERIC' })]);
    expect(await post('/api/public/scores', { name: 'passed', value: 2, dataType: 'BOOLEAN', traceId: 't1' })).toMatchObject({ status: 400, body: { message: 'a BOOLEAN score has value 0 or 1' } });
    expect(await post('/api/public/scores', { name: 'passed', value: 1 })).toMatchObject({ status: 400, body: { message: 'a score needs a traceId, a sessionId or a datasetRunId' } });
    expect((await post('/api/public/scores', 'not json')).status).toBe(400);
    expect(fake.scores()).toHaveLength(1);
  });

  it('reads OTLP/JSON spans into traces, one observation per span id, named by the root span', async () => {
    const fake = await start();
    const traceId = 'a'.repeat(32);
    const span = (spanId: string, name: string, extra: Record<string, unknown> = {}) => ({ traceId, spanId, name, startTimeUnixNano: '1', endTimeUnixNano: '2', ...extra });
    const request = (spans: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
    const root = span('1'.repeat(16), 'conversation spa', {
      attributes: [
        { key: 'langfuse.trace.name', value: { stringValue: 'spa_happy' } },
        { key: 'gen_ai.usage.input_tokens', value: { intValue: '10' } },
        { key: 'parley.metadata_only', value: { boolValue: false } },
        { key: 'score', value: { doubleValue: 0.9 } },
        { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'booking' }] } } },
      ],
      events: [{ name: 'gen_ai.evaluation.result', attributes: [{ key: 'gen_ai.evaluation.name', value: { stringValue: 'conversation_judge' } }] }],
    });
    expect((await post('/api/public/otel/v1/traces', request([root, span('2'.repeat(16), 'agent chat', { parentSpanId: '1'.repeat(16) })]))).status).toBe(200);
    // Sent again (a second export): replaced, not added.
    await post('/api/public/otel/v1/traces', request([span('2'.repeat(16), 'agent chat again', { parentSpanId: '1'.repeat(16) })]));
    const [trace] = fake.traces();
    expect(trace!.traceId).toBe(traceId);
    expect(trace!.name).toBe('spa_happy');
    expect(trace!.observations.map((observation) => observation.name)).toEqual(['conversation spa', 'agent chat again']);
    expect(trace!.observations[0]!.attributes).toEqual({ 'langfuse.trace.name': 'spa_happy', 'gen_ai.usage.input_tokens': 10, 'parley.metadata_only': false, score: 0.9, tags: ['booking'] });
    expect(trace!.observations[0]!.events).toEqual([{ name: 'gen_ai.evaluation.result', attributes: { 'gen_ai.evaluation.name': 'conversation_judge' } }]);
  });

  it('refuses protobuf and malformed OTLP requests', async () => {
    const fake = await start();
    expect((await post('/api/public/otel/v1/traces', 'binary', 'application/x-protobuf')).status).toBe(415);
    expect((await post('/api/public/otel/v1/traces', { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'short', spanId: '1'.repeat(16) }] }] }] })).status).toBe(400);
    expect(fake.traces()).toEqual([]);
  });
});

describe('the fake Langfuse: production traces', () => {
  const productionTraces = [
    { id: 'late', timestamp: '2026-11-26T12:00:00.000Z', sessionId: 'conv-late', observations: [{ id: 'g1', type: 'GENERATION' as const, startTime: '2026-11-26T12:00:00.000Z', input: [{ role: 'user', content: 'Habari' }], output: { content: 'Karibu' } }] },
    { id: 'early', timestamp: '2026-11-26T10:00:00.000Z', metadata: { conversation_id: 'conv-early' }, input: 'Habari', output: 'Karibu' },
    { id: 'outside', timestamp: '2026-11-25T10:00:00.000Z' },
  ];

  it('lists the traces of a window oldest first, page by page, with observation ids only', async () => {
    await start({ productionTraces });
    const window = 'fromTimestamp=2026-11-26T00:00:00.000Z&toTimestamp=2026-11-27T00:00:00.000Z&orderBy=timestamp.asc';
    const first = await get(`/api/public/traces?${window}&limit=1`);
    expect((first.body['data'] as Array<{ id: string }>).map((trace) => trace.id)).toEqual(['early']);
    expect(first.body['meta']).toEqual({ page: 1, limit: 1, totalItems: 2, totalPages: 2 });
    const second = await get(`/api/public/traces?${window}&limit=1&page=2`);
    expect(second.body['data']).toEqual([expect.objectContaining({ id: 'late', sessionId: 'conv-late', observations: ['g1'] })]);
  });

  it('serves one trace with its observations, and 404 for an unknown one', async () => {
    await start({ productionTraces });
    const { body } = await get('/api/public/traces/late');
    expect(body['observations']).toEqual([expect.objectContaining({ id: 'g1', type: 'GENERATION', traceId: 'late', output: { content: 'Karibu' }, endTime: null })]);
    expect((await get('/api/public/traces/nope')).status).toBe(404);
  });
});

describe('the fake Langfuse: faults', () => {
  it('answers the next requests to a path with the injected status and Retry-After, then serves normally', async () => {
    const fake = await start({ scores: scores(1), faults: [{ path: '/api/public/v3/scores', status: 429, times: 2, retryAfter: '3' }] });
    const first = await get('/api/public/v3/scores');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    expect((await get('/api/public/v3/scores')).status).toBe(429);
    expect((await get('/api/public/v3/scores')).status).toBe(200);
    // Another path is not affected.
    expect((await get('/api/public/scores')).status).toBe(200);
    expect(fake.requests.map((request) => request.status)).toEqual([429, 429, 200, 200]);
  });
});
