import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, testPostgresServer } from '../test-support/postgres-server.js';
import { sharedDatabase } from '../test-support/sql-executors.js';
import type { SqlDialect } from './executor.js';
import { budgetState, reserveBudget, settleBudget } from './shared-budget.js';

let server: PostgresServer | undefined;
beforeAll(async () => {
  server = await testPostgresServer();
}, 60_000);
afterAll(() => server?.stop());

describe.each<SqlDialect>(['sqlite', 'postgres'])('shared budget on %s', (dialect) => {
  it('8 clients reserving at once never go over the limit, and lose no settled spend', async () => {
    const database = await sharedDatabase(dialect, 8, () => server!);
    try {
      let round = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 40 }).map((cents) => cents / 100),
          // Each client's calls: what it reserves (the worst case) and what the call then cost.
          fc.array(
            fc.array(
              fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 100 })).map(([cents, share]) => ({
                reserve: cents / 100,
                actual: Math.round(cents * share) / 10_000,
              })),
              { minLength: 1, maxLength: 12 },
            ),
            { minLength: 8, maxLength: 8 },
          ),
          async (limit, plans) => {
            round += 1;
            const key = `pr-${round}`;
            const settled = await Promise.all(
              plans.map(async (calls, client) => {
                const executor = database.clients[client]!;
                let spent = 0;
                for (const call of calls) {
                  if (!(await reserveBudget(executor, key, call.reserve, limit))) continue;
                  const state = await budgetState(executor, key);
                  // Seen from any client at any moment: what is spent and held fits the limit.
                  expect(state.spentUsd + state.reservedUsd).toBeLessThanOrEqual(limit + 1e-9);
                  await settleBudget(executor, key, call.reserve, call.actual);
                  spent += Math.round(call.actual * 1_000_000);
                }
                return spent;
              }),
            );
            const final = await budgetState(database.clients[0]!, key);
            expect(final.reservedUsd).toBe(0);
            expect(final.spentUsd).toBeLessThanOrEqual(limit);
            expect(Math.round(final.spentUsd * 1_000_000)).toBe(settled.reduce((sum, each) => sum + each, 0));
          },
        ),
        { numRuns: 15 },
      );
    } finally {
      await database.close();
    }
  }, 120_000);

  it('a reservation that does not fit is refused, and fits again once a call settles below its hold', async () => {
    const database = await sharedDatabase(dialect, 1, () => server!);
    const executor = database.clients[0]!;
    try {
      expect(await reserveBudget(executor, 'pr', 0.6, 1)).toBe(true);
      expect(await reserveBudget(executor, 'pr', 0.5, 1)).toBe(false);
      await settleBudget(executor, 'pr', 0.6, 0.2);
      expect(await budgetState(executor, 'pr')).toEqual({ spentUsd: 0.2, reservedUsd: 0 });
      expect(await reserveBudget(executor, 'pr', 0.8, 1)).toBe(true);
      expect(await reserveBudget(executor, 'pr', 0.000001, 1)).toBe(false);
      await expect(settleBudget(executor, 'other', 0.1, 0.1)).rejects.toThrow('no shared budget other to settle');
    } finally {
      await database.close();
    }
  }, 60_000);
});
