import { startFakeLangfuse, type FakeLangfuse, type FakeScore } from '@parley/fake-langfuse';
import { ConfigError } from '@parley/core';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchLangfuseFeedback } from './langfuse-feedback.js';

const KEYS = { publicKey: 'pk-lf-test-1234', secretKey: 'sk-lf-test-SECRET-98765' };

/** Five user_feedback scores (on traces and on a session) and one other score. */
const SCORES: FakeScore[] = [
  { id: 's1', name: 'user_feedback', dataType: 'NUMERIC', value: -1, timestamp: '2026-11-27T09:05:00Z', traceId: 'conv-grace', comment: 'It never told me the price' },
  { id: 's2', name: 'user_feedback', dataType: 'NUMERIC', value: 1, timestamp: '2026-11-28T10:02:00Z', traceId: 'conv-happy' },
  { id: 's3', name: 'user_feedback', dataType: 'CATEGORICAL', value: '👎', timestamp: '2026-11-29T08:05:00Z', sessionId: 'conv-dentist' },
  { id: 's4', name: 'user_feedback', dataType: 'BOOLEAN', value: false, timestamp: '2026-11-29T12:00:00Z', traceId: 'conv-bool' },
  { id: 's5', name: 'user_feedback', dataType: 'CATEGORICAL', value: '💬', timestamp: '2026-10-30T09:10:00Z', traceId: 'conv-old', comment: 'Sunday hours were wrong' },
  { id: 's6', name: 'latency_ok', dataType: 'BOOLEAN', value: true, timestamp: '2026-11-29T12:00:00Z', traceId: 'conv-grace' },
];

let langfuse: FakeLangfuse | undefined;
afterEach(async () => {
  await langfuse?.close();
  langfuse = undefined;
});

function summary(feedback: Awaited<ReturnType<typeof fetchLangfuseFeedback>>) {
  return feedback.map((item) => [item.conversation_id, item.verdict, item.comment ?? null]).sort();
}

const EXPECTED = [
  ['conv-bool', 'negative', null],
  ['conv-dentist', 'negative', null],
  ['conv-grace', 'negative', 'It never told me the price'],
  ['conv-happy', 'positive', null],
  ['conv-old', 'neutral', 'Sunday hours were wrong'],
];

describe('fetchLangfuseFeedback', () => {
  it('reads every user_feedback score through the v3 API, page by page with the cursor', async () => {
    langfuse = await startFakeLangfuse({ ...KEYS, scores: SCORES });
    const feedback = await fetchLangfuseFeedback({ baseUrl: langfuse.url, ...KEYS }, { pageSize: 2 });
    expect(summary(feedback)).toEqual(EXPECTED);
    expect(langfuse.requests.map((request) => [request.path, request.query['cursor'] !== undefined, request.status])).toEqual([
      ['/api/public/v3/scores', false, 200],
      ['/api/public/v3/scores', true, 200],
      ['/api/public/v3/scores', true, 200],
    ]);
    expect(langfuse.requests.every((request) => request.authorised && request.query['name'] === 'user_feedback')).toBe(true);
  });

  it('falls back to GET /api/public/scores (numbered pages) where the v3 endpoint does not exist', async () => {
    langfuse = await startFakeLangfuse({ ...KEYS, scores: SCORES, legacyOnly: true });
    const feedback = await fetchLangfuseFeedback({ baseUrl: `${langfuse.url}/`, ...KEYS }, { pageSize: 2 });
    expect(summary(feedback)).toEqual(EXPECTED);
    expect(langfuse.requests.map((request) => `${request.path} ${request.query['page'] ?? ''} ${request.status}`)).toEqual([
      '/api/public/v3/scores  404',
      '/api/public/scores 1 200',
      '/api/public/scores 2 200',
      '/api/public/scores 3 200',
    ]);
  });

  it('asks only for scores since --since', async () => {
    langfuse = await startFakeLangfuse({ ...KEYS, scores: SCORES });
    const feedback = await fetchLangfuseFeedback({ baseUrl: langfuse.url, ...KEYS }, { since: new Date('2026-11-23T12:00:00Z') });
    expect(feedback.map((item) => item.conversation_id).sort()).toEqual(['conv-bool', 'conv-dentist', 'conv-grace', 'conv-happy']);
    expect(langfuse.requests[0]?.query['fromTimestamp']).toBe('2026-11-23T12:00:00.000Z');
  });

  it('says that the keys were refused, without printing them', async () => {
    langfuse = await startFakeLangfuse({ ...KEYS, scores: SCORES });
    const attempt = fetchLangfuseFeedback({ baseUrl: langfuse.url, publicKey: KEYS.publicKey, secretKey: 'sk-lf-WRONG-55555' });
    await expect(attempt).rejects.toThrow(ConfigError);
    const message = await attempt.catch((error: Error) => error.message);
    expect(message).toBe(`Langfuse at ${langfuse.url} refused the keys (HTTP 401): check LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY (a project's keys, from its settings page)`);
    expect(message).not.toMatch(/sk-lf|pk-lf/);
  });

  it('says it cannot reach a Langfuse that is not there, and when an answer is not the API', async () => {
    langfuse = await startFakeLangfuse({ ...KEYS, scores: [] });
    const url = langfuse.url;
    await langfuse.close();
    langfuse = undefined;
    await expect(fetchLangfuseFeedback({ baseUrl: url, ...KEYS }, { sleep: async () => undefined })).rejects.toThrow(`cannot reach Langfuse at ${url}/api/public/v3/scores`);
    const notLangfuse: typeof fetch = async () => new Response('<html>login</html>', { status: 200 });
    await expect(fetchLangfuseFeedback({ baseUrl: 'http://langfuse.internal', ...KEYS }, { fetch: notLangfuse })).rejects.toThrow(
      'Langfuse at http://langfuse.internal answered GET /api/public/v3/scores with something that is not JSON (<html>login</html>): is http://langfuse.internal a Langfuse?',
    );
  });
});
