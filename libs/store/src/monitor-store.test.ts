import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openMonitorStore, type MonitoredConversation } from './monitor-store.js';

function conversation(id: string, overrides: Partial<MonitoredConversation> = {}): MonitoredConversation {
  return {
    suite: 'ratiba_booking',
    conversation_id: id,
    ended_at: '2026-11-26T09:00:00.000Z',
    judged_at: '2026-11-26T10:00:00.000Z',
    tenant: 'zuri_spa',
    prompt_version: 'booking@abc1234',
    status: 'judged',
    cost_usd: 0.01,
    scores: [{ metric: 'conversation_judge', metric_version: '1.0.0', score: 0.8, threshold: 0.7, passed: true, error: false, reason: 'warm', judge_model: 'anthropic:claude-sonnet-4-6' }],
    ...overrides,
  };
}

describe('the monitor store', () => {
  it('remembers judged conversations across connections, not failed ones, and keeps one score per metric', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'parley-monitor-store-')), 'parley.db');
    const first = openMonitorStore(path);
    first.save(conversation('c1'));
    first.save(conversation('c2', { status: 'error', scores: [] }));
    first.save(conversation('c1', { scores: [{ ...conversation('c1').scores[0]!, score: 0.6 }] }));
    first.close();

    const store = openMonitorStore(path);
    expect([...store.judgedAmong('ratiba_booking', ['c1', 'c2', 'c3'])]).toEqual(['c1']);
    expect(store.judgedAmong('another_suite', ['c1']).size).toBe(0);
    const scores = store.scoresBetween('ratiba_booking', '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z');
    expect(scores).toEqual([expect.objectContaining({ conversation_id: 'c1', score: 0.6, passed: true, at: '2026-11-26T09:00:00.000Z', prompt_version: 'booking@abc1234' })]);
    expect(store.scoresBetween('ratiba_booking', '2026-11-26T09:00:00.001Z', '2026-11-27T00:00:00.000Z')).toEqual([]);
    store.close();
  });

  it('looks up more ids than SQLite takes in one statement', () => {
    const store = openMonitorStore(':memory:');
    const ids = Array.from({ length: 1_200 }, (_, index) => `c${index}`);
    for (const id of ids.filter((_, index) => index % 3 === 0)) store.save(conversation(id));
    expect(store.judgedAmong('ratiba_booking', ids).size).toBe(400);
    store.close();
  });

  it('saves many conversations in one transaction, each as save() would, later ones replacing earlier', () => {
    const store = openMonitorStore(':memory:');
    store.saveAll([conversation('a'), conversation('b', { status: 'error', scores: [] }), conversation('a', { scores: [{ ...conversation('a').scores[0]!, score: 0.5 }] })]);
    store.saveAll([]);
    expect([...store.judgedAmong('ratiba_booking', ['a', 'b'])]).toEqual(['a']);
    expect(store.scoresBetween('ratiba_booking', '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z').map((score) => [score.conversation_id, score.score])).toEqual([['a', 0.5]]);
    store.close();
  });
});
