import { isConfigError } from '@parley/core';
import { startFakeLangfuse, type FakeLangfuse, type FakeProductionTrace } from '@parley/fake-langfuse';
import { afterEach, describe, expect, it } from 'vitest';
import { readLangfuseConversations } from './langfuse-conversations.js';
import { MONITOR_SALT } from './sampled-conversations.js';

const KEYS = { publicKey: 'pk-lf-read', secretKey: 'sk-lf-read' };
const WINDOW = { since: new Date('2026-11-27T06:00:00.000Z'), until: new Date('2026-11-27T12:00:00.000Z') };

let server: FakeLangfuse | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(productionTraces: FakeProductionTrace[]): Promise<{ baseUrl: string; publicKey: string; secretKey: string }> {
  server = await startFakeLangfuse({ ...KEYS, scores: [], productionTraces });
  return { baseUrl: server.url, ...KEYS };
}

/** A trace an agent's SDK leaves: a generation whose input holds the conversation so far, and its answer. */
const BOOKING: FakeProductionTrace = {
  id: 'trace-booking',
  timestamp: '2026-11-27T09:00:00.000Z',
  sessionId: 'session-7',
  metadata: { conversation_id: 'wa:254722118904:2026-11-27', tenant_id: 'zuri_spa', vertical: 'salon', language: 'sw', prompt_version: 'booking@abc1234', customer_name: 'Grace Achieng' },
  observations: [
    { id: 'g1', type: 'GENERATION', startTime: '2026-11-27T09:00:01.000Z', endTime: '2026-11-27T09:00:02.000Z', input: [{ role: 'user', content: 'Habari' }], output: { content: 'Karibu!' } },
    {
      id: 'g2',
      type: 'GENERATION',
      startTime: '2026-11-27T09:01:00.000Z',
      endTime: '2026-11-27T09:01:03.000Z',
      input: [
        { role: 'system', content: 'You are Ratiba.' },
        { role: 'user', content: 'Habari' },
        { role: 'assistant', content: 'Karibu!' },
        { role: 'user', content: [{ type: 'text', text: 'Nataka massage ' }, { type: 'text', text: 'Jumamosi.' }] },
      ],
      output: { role: 'assistant', content: 'Saa nne inafaa?' },
    },
    { id: 's1', type: 'SPAN', startTime: '2026-11-27T09:01:04.000Z' },
  ],
};

describe('readLangfuseConversations', () => {
  it('reads a trace\'s last generation as the conversation, with the metadata Parley needs', async () => {
    const target = await serve([BOOKING]);
    const result = await readLangfuseConversations(target, { percent: 100, salt: MONITOR_SALT, ...WINDOW });
    expect(result).toMatchObject({ total: 1, beforeWindow: 0, notConversations: 0 });
    expect(result.sampled).toEqual([
      {
        line: 1,
        value: expect.objectContaining({
          conversation_id: 'wa:254722118904:2026-11-27',
          trace_id: 'trace-booking',
          tenant: 'zuri_spa',
          vertical: 'salon',
          language: 'sw',
          prompt_version: 'booking@abc1234',
          customer_name: 'Grace Achieng',
          turns: [
            { role: 'user', content: 'Habari' },
            { role: 'assistant', content: 'Karibu!' },
            { role: 'user', content: 'Nataka massage Jumamosi.' },
            // The closing turn carries the generation's end: when the conversation ended.
            { role: 'assistant', content: 'Saa nne inafaa?', timestamp: '2026-11-27T09:01:03.000Z' },
          ],
        }),
      },
    ]);
  });

  it('reads a trace without generations from its own input and output; one with neither holds no conversation', async () => {
    const target = await serve([
      { id: 'plain', timestamp: '2026-11-27T08:00:00.000Z', sessionId: 'session-plain', input: 'Habari', output: 'Karibu!' },
      { id: 'empty', timestamp: '2026-11-27T08:30:00.000Z' },
    ]);
    const result = await readLangfuseConversations(target, { percent: 100, salt: MONITOR_SALT, ...WINDOW });
    expect(result.notConversations).toBe(1);
    expect(result.sampled.map(({ value }) => [value.conversation_id, value.turns])).toEqual([
      [
        'session-plain',
        [
          { role: 'user', content: 'Habari', timestamp: '2026-11-27T08:00:00.000Z' },
          { role: 'assistant', content: 'Karibu!', timestamp: '2026-11-27T08:00:00.000Z' },
        ],
      ],
    ]);
  });

  it('lists every page of the window, samples by conversation id, and reads only the sampled traces in full', async () => {
    const traces: FakeProductionTrace[] = Array.from({ length: 230 }, (_, index) => ({
      id: `t${String(index).padStart(3, '0')}`,
      timestamp: new Date(WINDOW.since.getTime() + index * 60_000).toISOString(),
      input: 'Habari',
      output: 'Karibu!',
    }));
    traces.push({ id: 'before-the-window', timestamp: '2026-11-27T05:00:00.000Z', input: 'Habari', output: 'Karibu!' });
    const target = await serve(traces);
    const all = await readLangfuseConversations(target, { percent: 100, salt: MONITOR_SALT, ...WINDOW });
    expect(all.total).toBe(230);
    expect(all.sampled.map(({ value }) => value.conversation_id)).toEqual(traces.slice(0, 230).map((trace) => trace.id));
    expect(server!.requests.filter((request) => request.path === '/api/public/traces').map((request) => request.query['page'])).toEqual(['1', '2', '3']);

    server!.requests.length = 0;
    const tenth = await readLangfuseConversations(target, { percent: 10, salt: MONITOR_SALT, ...WINDOW });
    expect(tenth.total).toBe(230);
    expect(tenth.sampled.length).toBeLessThan(50);
    expect(server!.requests.filter((request) => request.path.startsWith('/api/public/traces/'))).toHaveLength(tenth.sampled.length);
  });

  it('turns refused keys into a configuration error naming the variables to check', async () => {
    const target = await serve([BOOKING]);
    const error = await readLangfuseConversations({ ...target, secretKey: 'wrong' }, { percent: 100, salt: MONITOR_SALT, ...WINDOW }).catch((caught: unknown) => caught);
    expect(isConfigError(error)).toBe(true);
    expect(String(error)).toContain('LANGFUSE_PUBLIC_KEY');
    expect(String(error)).not.toContain('wrong');
  });
});
