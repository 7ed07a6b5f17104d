import { describe, expect, it } from 'vitest';
import { storeDrivers, useStoreDriver } from '../test-support/each-driver.js';
import { separateHandles } from '../test-support/separate-handles.js';
import type { SyncSql } from './sync-sql.js';
import { claimOrAwaitVerdict, claimVerdict, releaseClaim, renewClaim, storeVerdict } from './judge-claims.js';

/** Polling without waiting on the clock: the next poll comes after pending I/O. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe.each(storeDrivers)('judge claims on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('of 8 clients asking for one verdict at once, one judges and the other 7 read its verdict', async () => {
    const clients = separateHandles(database, 8);
    try {
      let judgeCalls = 0;
      const now = (): number => 1_000;
      const outcomes = await Promise.all(
        clients.map(async (sql, client) => {
          const holder = `runner-${client}`;
          const outcome = await claimOrAwaitVerdict(sql, 'verdict-key', holder, { leaseMs: 60_000, pollMs: 50, now, sleep: nextTurn });
          if (outcome.kind === 'judged') return outcome.valueJson;
          judgeCalls += 1;
          await nextTurn(); // the judge call: the others poll meanwhile
          const verdict = JSON.stringify({ passed: true, by: holder });
          expect(storeVerdict(sql, 'verdict-key', holder, verdict)).toBe(true);
          return verdict;
        }),
      );
      expect(judgeCalls).toBe(1);
      expect(new Set(outcomes).size).toBe(1);
    } finally {
      for (const sql of clients) sql.close();
    }
  }, 60_000);

  it('a claim whose holder died is taken over once its lease is past, and the dead holder cannot overwrite', () => {
    const clients = separateHandles(database, 3);
    const [first, second, third] = clients as [SyncSql, SyncSql, SyncSql];
    try {
      expect(claimVerdict(first, 'k', 'a', 0, 1_000)).toEqual({ kind: 'claimed' });
      expect(claimVerdict(second, 'k', 'b', 500, 1_000)).toEqual({ kind: 'held', holder: 'a', leaseUntilMs: 1_000 });
      // a renews while it is still judging: b has to wait longer.
      expect(renewClaim(first, 'k', 'a', 900, 1_000)).toBe(true);
      expect(claimVerdict(second, 'k', 'b', 1_500, 1_000)).toEqual({ kind: 'held', holder: 'a', leaseUntilMs: 1_900 });
      // a stops renewing (it died): after 1,900 b takes over.
      expect(claimVerdict(second, 'k', 'b', 2_000, 1_000)).toEqual({ kind: 'claimed' });
      expect(storeVerdict(first, 'k', 'a', '"late"')).toBe(false);
      expect(renewClaim(first, 'k', 'a', 2_100, 1_000)).toBe(false);
      expect(releaseClaim(first, 'k', 'a')).toBe(false);
      expect(storeVerdict(second, 'k', 'b', '"fresh"')).toBe(true);
      // Once judged, the verdict stays, lease or not.
      expect(claimVerdict(third, 'k', 'c', 99_000, 1_000)).toEqual({ kind: 'judged', valueJson: '"fresh"' });
    } finally {
      for (const sql of clients) sql.close();
    }
  });

  it('a released claim is free at once: the next asker claims it without waiting for the lease', () => {
    const clients = separateHandles(database, 2);
    const [first, second] = clients as [SyncSql, SyncSql];
    try {
      expect(claimVerdict(first, 'k', 'a', 0, 60_000)).toEqual({ kind: 'claimed' });
      expect(claimVerdict(second, 'k', 'b', 10, 60_000)).toMatchObject({ kind: 'held', holder: 'a' });
      expect(releaseClaim(first, 'k', 'a')).toBe(true);
      expect(claimVerdict(second, 'k', 'b', 20, 60_000)).toEqual({ kind: 'claimed' });
    } finally {
      for (const sql of clients) sql.close();
    }
  });

  it('a waiting client polls with the injected clock until the lease of a silent holder runs out, then judges', async () => {
    const clients = separateHandles(database, 2);
    const [holder, waiter] = clients as [SyncSql, SyncSql];
    try {
      expect(claimVerdict(holder, 'k', 'dead', 0, 1_000)).toEqual({ kind: 'claimed' });
      let clock = 0;
      let polls = 0;
      const outcome = await claimOrAwaitVerdict(waiter, 'k', 'alive', {
        leaseMs: 1_000,
        pollMs: 250,
        now: () => clock,
        sleep: async (ms) => {
          polls += 1;
          clock += ms;
        },
      });
      expect(outcome).toEqual({ kind: 'claimed' });
      // Held at 0, 250, 500, 750 and 1,000 (the lease runs to 1,000 inclusive); taken at 1,250.
      expect(polls).toBe(5);
    } finally {
      for (const sql of clients) sql.close();
    }
  });
});
