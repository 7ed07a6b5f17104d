import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, testPostgresServer } from '../test-support/postgres-server.js';
import { sharedDatabase } from '../test-support/sql-executors.js';
import type { SqlDialect } from './executor.js';
import { claimOrAwaitVerdict, claimVerdict, renewClaim, storeVerdict } from './judge-claims.js';

let server: PostgresServer | undefined;
beforeAll(async () => {
  server = await testPostgresServer();
}, 60_000);
afterAll(() => server?.stop());

/** Polling without waiting on the clock: the next poll comes after pending I/O. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe.each<SqlDialect>(['sqlite', 'postgres'])('judge claims on %s', (dialect) => {
  it('of 8 clients asking for one verdict at once, one judges and the other 7 read its verdict', async () => {
    const database = await sharedDatabase(dialect, 8, () => server!);
    try {
      let judgeCalls = 0;
      const now = (): number => 1_000;
      const outcomes = await Promise.all(
        database.clients.map(async (executor, client) => {
          const holder = `runner-${client}`;
          const outcome = await claimOrAwaitVerdict(executor, 'verdict-key', holder, { leaseMs: 60_000, pollMs: 50, now, sleep: nextTurn });
          if (outcome.kind === 'judged') return outcome.valueJson;
          judgeCalls += 1;
          const verdict = JSON.stringify({ passed: true, by: holder });
          expect(await storeVerdict(executor, 'verdict-key', holder, verdict)).toBe(true);
          return verdict;
        }),
      );
      expect(judgeCalls).toBe(1);
      expect(new Set(outcomes).size).toBe(1);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('a claim whose holder died is taken over once its lease is past, and the dead holder cannot overwrite', async () => {
    const database = await sharedDatabase(dialect, 3, () => server!);
    const [first, second, third] = database.clients as [never, never, never];
    try {
      expect(await claimVerdict(first, 'k', 'a', 0, 1_000)).toEqual({ kind: 'claimed' });
      expect(await claimVerdict(second, 'k', 'b', 500, 1_000)).toEqual({ kind: 'held', holder: 'a', leaseUntilMs: 1_000 });
      // a renews while it is still judging: b has to wait longer.
      expect(await renewClaim(first, 'k', 'a', 900, 1_000)).toBe(true);
      expect(await claimVerdict(second, 'k', 'b', 1_500, 1_000)).toEqual({ kind: 'held', holder: 'a', leaseUntilMs: 1_900 });
      // a stops renewing (it died): after 1,900 b takes over.
      expect(await claimVerdict(second, 'k', 'b', 2_000, 1_000)).toEqual({ kind: 'claimed' });
      expect(await storeVerdict(first, 'k', 'a', '"late"')).toBe(false);
      expect(await renewClaim(first, 'k', 'a', 2_100, 1_000)).toBe(false);
      expect(await storeVerdict(second, 'k', 'b', '"fresh"')).toBe(true);
      // Once judged, the verdict stays, lease or not.
      expect(await claimVerdict(third, 'k', 'c', 99_000, 1_000)).toEqual({ kind: 'judged', valueJson: '"fresh"' });
    } finally {
      await database.close();
    }
  }, 60_000);

  it('a waiting client polls with the injected clock until the lease of a silent holder runs out, then judges', async () => {
    const database = await sharedDatabase(dialect, 2, () => server!);
    const [holder, waiter] = database.clients as [never, never];
    try {
      expect(await claimVerdict(holder, 'k', 'dead', 0, 1_000)).toEqual({ kind: 'claimed' });
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
      await database.close();
    }
  }, 60_000);
});
