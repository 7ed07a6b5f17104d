import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLangfuse, type FakeLangfuse } from './fake-langfuse.js';
import { ENDPOINTS } from './public-api-shapes.js';

const KEYS = { publicKey: 'pk-lf-strict', secretKey: 'sk-lf-strict' };
const AUTH = `Basic ${Buffer.from(`${KEYS.publicKey}:${KEYS.secretKey}`).toString('base64')}`;

let server: FakeLangfuse | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server!.url}${path}`, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the fake Langfuse is strict, as the API definitions are', () => {
  it('refuses an unknown query parameter on every endpoint it serves, naming it', async () => {
    server = await startFakeLangfuse({ ...KEYS, scores: [] });
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace(/\{\w+\}/g, 'x');
      const answer = await call(endpoint.method, `${path}?bogus=1`, endpoint.body ? {} : undefined);
      expect(answer, `${endpoint.method} ${endpoint.path}`).toEqual({ status: 400, body: { message: `unknown query parameter "bogus" for ${endpoint.method} ${endpoint.path}` } });
    }
  });

  it('refuses an unknown body field on every endpoint that takes a body, e.g. a score with a timestamp', async () => {
    server = await startFakeLangfuse({ ...KEYS, scores: [] });
    const bodies = ENDPOINTS.filter((endpoint) => endpoint.body !== undefined);
    expect(bodies.map((endpoint) => endpoint.path)).toEqual(['/api/public/scores', '/api/public/v2/datasets', '/api/public/dataset-items', '/api/public/dataset-run-items']);
    for (const endpoint of bodies) {
      const answer = await call('POST', endpoint.path, { bogus: true });
      expect(answer.body['message']).toBe(`unknown field "bogus" in the body of POST ${endpoint.path}`);
      expect(answer.status).toBe(400);
    }
    const withTimestamp = await call('POST', '/api/public/scores', { name: 'judge', value: 0.5, traceId: 't1', timestamp: '2026-11-26T10:00:00Z' });
    expect(withTimestamp).toEqual({ status: 400, body: { message: 'unknown field "timestamp" in the body of POST /api/public/scores' } });
    expect(server.scores()).toEqual([]);
  });
});

describe('the fake Langfuse: datasets, items and runs', () => {
  it('creates a dataset by name, upserts items by id, links run items to traces and serves the run with its items', async () => {
    server = await startFakeLangfuse({ ...KEYS, scores: [] });
    expect((await call('POST', '/api/public/dataset-items', { datasetName: 'booking', id: 'i1' })).status).toBe(404);
    const dataset = await call('POST', '/api/public/v2/datasets', { name: 'booking', description: 'first' });
    expect(dataset.body).toMatchObject({ name: 'booking', description: 'first' });
    expect((await call('POST', '/api/public/v2/datasets', { name: 'booking', description: 'second' })).body).toMatchObject({ id: dataset.body['id'], description: 'second' });
    await call('POST', '/api/public/dataset-items', { datasetName: 'booking', id: 'i1', input: { opening: 'hi' } });
    await call('POST', '/api/public/dataset-items', { datasetName: 'booking', id: 'i1', input: { opening: 'hello' }, expectedOutput: ['BK-1'] });
    expect((await call('GET', '/api/public/dataset-items?datasetName=booking')).body).toMatchObject({ data: [{ id: 'i1', input: { opening: 'hello' }, expectedOutput: ['BK-1'] }], meta: { totalItems: 1 } });
    await call('POST', '/api/public/v2/datasets', { name: 'other' });
    expect((await call('POST', '/api/public/dataset-items', { datasetName: 'other', id: 'i1' })).status).toBe(400);

    expect((await call('POST', '/api/public/dataset-run-items', { runName: 'r1', datasetItemId: 'i1' })).status).toBe(404);
    const linked = await call('POST', '/api/public/dataset-run-items', { runName: 'r1', runDescription: 'agent a', datasetItemId: 'i1', traceId: 't'.repeat(32) });
    expect(linked.body).toMatchObject({ datasetRunName: 'r1', datasetItemId: 'i1', traceId: 't'.repeat(32) });
    const run = await call('GET', '/api/public/datasets/booking/runs/r1');
    expect(run.body).toMatchObject({ name: 'r1', description: 'agent a', datasetName: 'booking', datasetRunItems: [{ datasetItemId: 'i1' }] });
    expect((await call('GET', '/api/public/datasets/booking/runs')).body).toMatchObject({ data: [{ name: 'r1' }] });
    expect((await call('GET', `/api/public/dataset-run-items?datasetId=${String(dataset.body['id'])}&runName=r1`)).body).toMatchObject({ data: [{ datasetItemId: 'i1' }] });
    // As Langfuse does, posting the same link again adds a second run item.
    await call('POST', '/api/public/dataset-run-items', { runName: 'r1', datasetItemId: 'i1', traceId: 't'.repeat(32) });
    expect(server.datasets().runs[0]!.datasetRunItems).toHaveLength(2);
  });
});
