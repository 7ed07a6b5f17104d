import { describe, expect, it } from 'vitest';
import { openMonitorBatchStore } from './monitor-batch-store.js';
import { openMonitorStore, type MonitoredConversation } from './monitor-store.js';
import { openOutbox, type OutboxEntry } from './outbox-store.js';
import { storeDrivers, useStoreDriver } from './test-support/each-driver.js';

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
    scores: [
      {
        metric: 'conversation_judge',
        metric_version: '1.0.0',
        score: 0.8,
        threshold: 0.7,
        passed: true,
        error: false,
        reason: 'warm',
        judge_model: 'anthropic:claude-sonnet-4-6',
      },
    ],
    ...overrides,
  };
}

function delivery(itemKey: string, payload = '{}', destination = 'langfuse:https://cloud.langfuse.com'): OutboxEntry {
  return {
    kind: 'monitor_score',
    destination,
    item_key: itemKey,
    suite: 'ratiba_booking',
    payload_json: payload,
    created_at: '2026-11-26T10:00:00.000Z',
  };
}

describe.each(storeDrivers)('the monitor store on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('remembers judged conversations across connections, not failed ones, and keeps one score per metric', () => {
    const first = openMonitorStore(database.path);
    first.save(conversation('c1'));
    first.save(conversation('c2', { status: 'error', scores: [] }));
    first.save(
      conversation('c1', {
        scores: [{ ...conversation('c1').scores[0]!, score: 0.6 }],
      }),
    );
    first.close();

    const store = openMonitorStore(database.path);
    try {
      expect([...store.judgedAmong('ratiba_booking', ['c1', 'c2', 'c3'])]).toEqual(['c1']);
      expect(store.judgedAmong('another_suite', ['c1']).size).toBe(0);
      const scores = store.scoresBetween('ratiba_booking', '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z');
      expect(scores).toEqual([
        {
          conversation_id: 'c1',
          metric: 'conversation_judge',
          metric_version: '1.0.0',
          score: 0.6,
          threshold: 0.7,
          passed: true,
          error: false,
          reason: 'warm',
          judge_model: 'anthropic:claude-sonnet-4-6',
          prompt_version: 'booking@abc1234',
          at: '2026-11-26T09:00:00.000Z',
        },
      ]);
      expect(store.scoresBetween('ratiba_booking', '2026-11-26T09:00:00.001Z', '2026-11-27T00:00:00.000Z')).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('looks up more ids than one statement takes', () => {
    const store = openMonitorStore(database.path);
    try {
      const ids = Array.from({ length: 1_200 }, (_, index) => `c${index}`);
      store.saveAll(ids.filter((_, index) => index % 3 === 0).map((id) => conversation(id)));
      expect(store.judgedAmong('ratiba_booking', ids).size).toBe(400);
      expect(store.scoresBetween('ratiba_booking', '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z')).toHaveLength(400);
    } finally {
      store.close();
    }
  });

  it('saves many conversations in one transaction, each as save() would, later ones replacing earlier', () => {
    const store = openMonitorStore(database.path);
    try {
      store.saveAll([
        conversation('a'),
        conversation('b', { status: 'error', scores: [] }),
        conversation('a', {
          scores: [{ ...conversation('a').scores[0]!, score: 0.5 }],
        }),
      ]);
      store.saveAll([]);
      expect([...store.judgedAmong('ratiba_booking', ['a', 'b'])]).toEqual(['a']);
      expect(store.scoresBetween('ratiba_booking', '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z').map((score) => [score.conversation_id, score.score])).toEqual([
        ['a', 0.5],
      ]);
      // A conversation judged again with fewer metrics loses the metric it no longer has.
      const twoMetrics = conversation('a', {
        scores: [
          ...conversation('a').scores,
          {
            ...conversation('a').scores[0]!,
            metric: 'tone',
            passed: false,
            error: true,
            score: null,
          },
        ],
      });
      store.save(twoMetrics);
      expect(store.scoresBetween('ratiba_booking', '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 'tone')).toEqual([
        expect.objectContaining({
          conversation_id: 'a',
          metric: 'tone',
          score: null,
          passed: false,
          error: true,
        }),
      ]);
      store.save(conversation('a'));
      expect(store.scoresBetween('ratiba_booking', '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z').map((score) => score.metric)).toEqual(['conversation_judge']);
    } finally {
      store.close();
    }
  });

  it('adds deliveries in the conversations\u2019 transaction: a failing save adds neither', () => {
    const store = openMonitorStore(database.path);
    const outbox = openOutbox(database.path);
    try {
      // A NULL status breaks the NOT NULL column: the whole save is rolled back, outbox items included.
      const broken = conversation('bad', {
        status: null as never,
        deliveries: [delivery('score-bad')],
      });
      expect(() => store.saveAll([conversation('ok', { deliveries: [delivery('score-ok')] }), broken])).toThrow();
      expect(store.judgedAmong('ratiba_booking', ['ok', 'bad']).size).toBe(0);
      expect(outbox.pending('monitor_score', 'langfuse:https://cloud.langfuse.com')).toEqual([]);

      store.saveAll([
        conversation('ok', {
          deliveries: [delivery('score-ok', '{"v":1}'), delivery('score-ok', '{"v":2}')],
        }),
      ]);
      expect(outbox.pending('monitor_score', 'langfuse:https://cloud.langfuse.com')).toEqual([{ ...delivery('score-ok', '{"v":2}'), attempts: 0, last_error: null }]);
    } finally {
      outbox.close();
      store.close();
    }
  });
});

describe.each(storeDrivers)('monitor claims on %s', (driver) => {
  const database = useStoreDriver(driver);
  const LEASE = 60_000;

  it('lets one process judge a conversation; another is told held, then judged once it is saved; a dead holder is taken over after its lease', () => {
    const first = openMonitorStore(database.path);
    const second = openMonitorStore(database.path);
    try {
      expect(first.claim('ratiba_booking', 'c1', 'host:1', 1_000, LEASE)).toBe('claimed');
      expect(second.claim('ratiba_booking', 'c1', 'host:2', 2_000, LEASE)).toBe('held');
      // The holder may claim again (a conversation judged again after its batch came back).
      expect(first.claim('ratiba_booking', 'c1', 'host:1', 3_000, LEASE)).toBe('claimed');
      // Another suite's conversation of the same id is another claim.
      expect(second.claim('another_suite', 'c1', 'host:2', 2_000, LEASE)).toBe('claimed');
      first.save(conversation('c1'));
      expect(second.claim('ratiba_booking', 'c1', 'host:2', 4_000, LEASE)).toBe('judged');

      // host:1 dies holding c2: held until its lease is past, then host:2 takes it over.
      expect(first.claim('ratiba_booking', 'c2', 'host:1', 10_000, LEASE)).toBe('claimed');
      expect(second.claim('ratiba_booking', 'c2', 'host:2', 10_000 + LEASE, LEASE)).toBe('held');
      expect(second.claim('ratiba_booking', 'c2', 'host:2', 10_001 + LEASE, LEASE)).toBe('claimed');
      expect(first.claim('ratiba_booking', 'c2', 'host:1', 10_002 + LEASE, LEASE)).toBe('held');

      // A holder said to be gone (a process of this machine that died) is taken over at once; a live one is not.
      expect(first.claim('ratiba_booking', 'c4', 'host:dead', 10_000, LEASE)).toBe('claimed');
      expect(second.claim('ratiba_booking', 'c4', 'host:2', 10_001, LEASE, (holder) => holder === 'host:1')).toBe('held');
      expect(second.claim('ratiba_booking', 'c4', 'host:2', 10_001, LEASE, (holder) => holder === 'host:dead')).toBe('claimed');
      expect(first.claim('ratiba_booking', 'c4', 'host:1', 10_002, LEASE)).toBe('held');

      // A claim given back (interrupted) is free at once; another holder's release frees nothing.
      expect(first.claim('ratiba_booking', 'c3', 'host:1', 20_000, LEASE)).toBe('claimed');
      second.release('ratiba_booking', ['c3'], 'host:2');
      expect(second.claim('ratiba_booking', 'c3', 'host:2', 20_000, LEASE)).toBe('held');
      first.release('ratiba_booking', ['c3'], 'host:1');
      expect(second.claim('ratiba_booking', 'c3', 'host:2', 20_000, LEASE)).toBe('claimed');
      // A conversation saved as an error is judged again by whoever claims it next.
      second.save(conversation('c3', { status: 'error', scores: [] }));
      expect(first.claim('ratiba_booking', 'c3', 'host:1', 20_000, LEASE)).toBe('claimed');
    } finally {
      first.close();
      second.close();
    }
  });
});

describe.each(storeDrivers)('the delivery outbox on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('keeps items pending until delivered, counts failures, and makes an item added again pending again', () => {
    const outbox = openOutbox(database.path);
    try {
      const keys = Array.from({ length: 250 }, (_, index) => `score-${String(index).padStart(3, '0')}`);
      outbox.add([...keys.map((key) => delivery(key)), delivery('elsewhere', '{}', 'langfuse:https://eu.langfuse.example')]);
      expect(outbox.pending('monitor_score', 'langfuse:https://cloud.langfuse.com').map((item) => item.item_key)).toEqual(keys);
      expect(outbox.pendingElsewhere('monitor_score', 'langfuse:https://cloud.langfuse.com')).toBe(1);
      expect(outbox.pending('run_export', 'langfuse:https://cloud.langfuse.com')).toEqual([]);

      outbox.failed('monitor_score', 'langfuse:https://cloud.langfuse.com', ['score-000', 'score-001', 'score-001'], 'HTTP 503', '2026-11-26T10:01:00.000Z');
      outbox.failed('monitor_score', 'langfuse:https://cloud.langfuse.com', ['score-000'], 'HTTP 502', '2026-11-26T10:02:00.000Z');
      outbox.delivered('monitor_score', 'langfuse:https://cloud.langfuse.com', 'score-001', '2026-11-26T10:03:00.000Z');
      const pending = outbox.pending('monitor_score', 'langfuse:https://cloud.langfuse.com');
      expect(pending).toHaveLength(249);
      expect(pending[0]).toEqual({
        ...delivery('score-000'),
        attempts: 2,
        last_error: 'HTTP 502',
      });
      expect(pending.find((item) => item.item_key === 'score-001')).toBeUndefined();

      // Claimed for sending: another sender gets none of them until the claim ends or its lease is past.
      const claimed = outbox.claimPending('monitor_score', 'langfuse:https://cloud.langfuse.com', 'host:1', 1_000, 60_000);
      expect(claimed).toEqual(pending);
      expect(outbox.claimPending('monitor_score', 'langfuse:https://cloud.langfuse.com', 'host:2', 2_000, 60_000)).toEqual([]);
      outbox.failed('monitor_score', 'langfuse:https://cloud.langfuse.com', ['score-000'], 'HTTP 503', '2026-11-26T10:04:00.000Z');
      outbox.delivered('monitor_score', 'langfuse:https://cloud.langfuse.com', 'score-002', '2026-11-26T10:04:00.000Z');
      expect(outbox.claimPending('monitor_score', 'langfuse:https://cloud.langfuse.com', 'host:2', 2_000, 60_000).map((item) => item.item_key)).toEqual(['score-000']);
      expect(outbox.claimPending('monitor_score', 'langfuse:https://cloud.langfuse.com', 'host:3', 3_000, 60_000, (sender) => sender === 'host:2').map((item) => item.item_key)).toEqual([
        'score-000',
      ]);
      expect(outbox.claimPending('monitor_score', 'langfuse:https://cloud.langfuse.com', 'host:2', 61_001, 60_000)).toHaveLength(247);

      // Added claimed (a run exporting its own results): no other sender gets it during the claim;
      // its own sender does, and once the claim's lease is past, anyone.
      outbox.add([delivery('own-export')], { sender: 'host:4', untilMs: 100_000 });
      expect(outbox.pending('monitor_score', 'langfuse:https://cloud.langfuse.com').map((item) => item.item_key)).toContain('own-export');
      expect(outbox.claimPending('monitor_score', 'langfuse:https://cloud.langfuse.com', 'host:5', 70_000, 60_000).map((item) => item.item_key)).not.toContain('own-export');
      expect(outbox.claimPending('monitor_score', 'langfuse:https://cloud.langfuse.com', 'host:4', 70_000, 60_000).map((item) => item.item_key)).toContain('own-export');
      outbox.add([delivery('own-export', '{"again":true}')], { sender: 'host:4', untilMs: 100_000 });
      expect(outbox.claimPending('monitor_score', 'langfuse:https://cloud.langfuse.com', 'host:5', 100_001, 60_000).map((item) => item.item_key)).toContain('own-export');
      outbox.delivered('monitor_score', 'langfuse:https://cloud.langfuse.com', 'own-export', '2026-11-26T10:05:00.000Z');

      // A delivered item added again (judged again) is sent again, its attempts counted afresh.
      outbox.add([delivery('score-001', '{"again":true}')]);
      expect(outbox.pending('monitor_score', 'langfuse:https://cloud.langfuse.com').find((item) => item.item_key === 'score-001')).toEqual({
        ...delivery('score-001', '{"again":true}'),
        attempts: 0,
        last_error: null,
      });
    } finally {
      outbox.close();
    }
  });
});

describe.each(storeDrivers)('the monitor batch store on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('keeps submitted batches until collected or failed, and finds answers by request key', () => {
    const store = openMonitorBatchStore(database.path);
    try {
      const keys = Array.from({ length: 130 }, (_, index) => `key-${index}`);
      store.addBatch(
        {
          suite: 's',
          batch_id: 'b1',
          provider: 'openai',
          model: 'gpt-4o-mini',
          submitted_at: '2026-11-26T10:00:00.000Z',
        },
        [...keys, 'key-0'],
      );
      store.addBatch(
        {
          suite: 's',
          batch_id: 'b2',
          provider: 'anthropic',
          model: 'claude',
          submitted_at: '2026-11-26T11:00:00.000Z',
        },
        ['key-0'],
      );
      store.addBatch(
        {
          suite: 'other',
          batch_id: 'b3',
          provider: 'openai',
          model: 'gpt-4o-mini',
          submitted_at: '2026-11-26T09:00:00.000Z',
        },
        ['x'],
      );
      expect(store.inProgress('s')).toEqual([
        {
          suite: 's',
          batch_id: 'b1',
          provider: 'openai',
          model: 'gpt-4o-mini',
          submitted_at: '2026-11-26T10:00:00.000Z',
          status: 'in_progress',
          collected_at: null,
          requests: 130,
        },
        {
          suite: 's',
          batch_id: 'b2',
          provider: 'anthropic',
          model: 'claude',
          submitted_at: '2026-11-26T11:00:00.000Z',
          status: 'in_progress',
          collected_at: null,
          requests: 1,
        },
      ]);
      expect(store.isPending('s', 'key-5')).toBe(true);
      expect(store.answer('s', 'key-5')).toBeUndefined();

      const answers = keys.map((key) => (key === 'key-7' ? { request_key: key, body: null, error: 'expired' } : { request_key: key, body: `{"k":"${key}"}`, error: null }));
      store.collect('b1', '2026-11-26T12:00:00.000Z', [...answers, { request_key: 'not-asked', body: '{}', error: null }]);
      store.fail('b2', '2026-11-26T12:00:00.000Z');
      expect(store.inProgress('s')).toEqual([]);
      expect(store.isPending('s', 'key-5')).toBe(false);
      expect(store.answer('s', 'key-5')).toEqual({
        batch_id: 'b1',
        provider: 'openai',
        body: '{"k":"key-5"}',
        error: null,
      });
      expect(store.answer('s', 'key-0')).toEqual({
        batch_id: 'b1',
        provider: 'openai',
        body: '{"k":"key-0"}',
        error: null,
      });
      expect(store.answer('s', 'key-7')).toBeUndefined();
      expect(store.answer('s', 'not-asked')).toBeUndefined();
      expect(store.answer('other', 'key-5')).toBeUndefined();
      expect(store.isPending('other', 'x')).toBe(true);
    } finally {
      store.close();
    }
  });
});
