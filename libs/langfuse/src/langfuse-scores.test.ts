import { startFakeLangfuse, type FakeLangfuse } from '@parley/fake-langfuse';
import { isConfigError } from '@parley/core';
import { afterEach, describe, expect, it } from 'vitest';
import { LangfuseError } from './langfuse-errors.js';
import { sendLangfuseScores, type LangfuseScore } from './langfuse-scores.js';

const KEYS = { publicKey: 'pk-lf-1', secretKey: 'sk-lf-1' };
const SCORE: LangfuseScore = { id: 'score-a', traceId: 'a'.repeat(32), name: 'conversation_judge', value: 0.8, dataType: 'NUMERIC', comment: 'warm and correct' };

let server: FakeLangfuse | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('sendLangfuseScores', () => {
  it('retries 429 and 5xx, waiting what Retry-After says, then succeeds', async () => {
    server = await startFakeLangfuse({ ...KEYS, scores: [], faults: [{ path: '/api/public/scores', status: 429, times: 1, retryAfter: '3' }, { path: '/api/public/scores', status: 503, times: 1 }] });
    const waits: number[] = [];
    await sendLangfuseScores({ baseUrl: server.url, ...KEYS }, [SCORE], { random: () => 1, sleep: async (milliseconds) => void waits.push(milliseconds) });
    expect(waits).toEqual([3000, 1000]);
    expect(server.scores()).toEqual([expect.objectContaining({ id: 'score-a', value: 0.8, comment: 'warm and correct' })]);
  });

  it('gives up after the retries with a LangfuseError naming the last status', async () => {
    server = await startFakeLangfuse({ ...KEYS, scores: [], faults: [{ path: '/api/public/scores', status: 502, times: 10 }] });
    const sending = sendLangfuseScores({ baseUrl: server.url, ...KEYS }, [SCORE], { retry: { maxRetries: 2 }, sleep: async () => undefined });
    await expect(sending).rejects.toBeInstanceOf(LangfuseError);
    await expect(sending).rejects.toThrow(`Langfuse at ${server.url} answered HTTP 502 to POST /api/public/scores: fault injected: HTTP 502 (gave up after 3 attempts)`);
  });

  it('turns refused keys into a configuration error at once, without retrying', async () => {
    server = await startFakeLangfuse({ ...KEYS, scores: [] });
    const error = await sendLangfuseScores({ baseUrl: server.url, publicKey: KEYS.publicKey, secretKey: 'wrong' }, [SCORE], { sleep: async () => undefined }).catch((caught: unknown) => caught);
    expect(isConfigError(error)).toBe(true);
    expect(String(error)).not.toContain('wrong');
    expect(server.requests).toHaveLength(1);
  });

  it('updates a score sent again under its id instead of adding one (as Langfuse does)', async () => {
    server = await startFakeLangfuse({ ...KEYS, scores: [] });
    const target = { baseUrl: server.url, ...KEYS };
    await sendLangfuseScores(target, [SCORE]);
    await sendLangfuseScores(target, [{ ...SCORE, value: 0.6 }]);
    expect(server.scores()).toEqual([expect.objectContaining({ id: 'score-a', value: 0.6 })]);
  });
});
