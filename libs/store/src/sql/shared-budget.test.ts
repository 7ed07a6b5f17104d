import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storeDrivers, useStoreDriver } from '../test-support/each-driver.js';
import { separateHandles } from '../test-support/separate-handles.js';
import { budgetState, reserveBudget, settleBudget } from './shared-budget.js';

describe.each(storeDrivers)('shared budget on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('8 clients whose calls overlap in any order never go over the limit, and lose no settled spend', { timeout: 120_000 }, () => {
    const clients = separateHandles(database, 8);
    try {
      let round = 0;
      fc.assert(
        fc.property(
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
          // Which client takes its next step (a reservation, or the settling of the call it holds):
          // holds of several clients are outstanding at once, in every order fast-check finds.
          fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 0, maxLength: 200 }),
          (limit, plans, order) => {
            round += 1;
            const key = `pr-${round}`;
            const next = plans.map(() => 0);
            const holding: Array<{ reserve: number; actual: number } | undefined> = plans.map(() => undefined);
            let settled = 0;
            const step = (client: number): void => {
              const sql = clients[client]!;
              const held = holding[client];
              if (held !== undefined) {
                settleBudget(sql, key, held.reserve, held.actual);
                settled += Math.round(held.actual * 1_000_000);
                holding[client] = undefined;
                return;
              }
              const call = plans[client]![next[client]!];
              if (call === undefined) return;
              next[client]! += 1;
              if (reserveBudget(sql, key, call.reserve, limit)) holding[client] = call;
              // Seen from another client at any moment: what is spent and held fits the limit.
              const state = budgetState(clients[(client + 1) % clients.length]!, key);
              expect(state.spentUsd + state.reservedUsd).toBeLessThanOrEqual(limit + 1e-9);
            };
            for (const client of order) step(client);
            // Then every client finishes its calls.
            for (let client = 0; client < plans.length; client += 1) {
              while (holding[client] !== undefined || next[client]! < plans[client]!.length) step(client);
            }
            const final = budgetState(clients[0]!, key);
            expect(final.reservedUsd).toBe(0);
            expect(final.spentUsd).toBeLessThanOrEqual(limit);
            expect(Math.round(final.spentUsd * 1_000_000)).toBe(settled);
          },
        ),
        { numRuns: 15 },
      );
    } finally {
      for (const sql of clients) sql.close();
    }
  });

  it('a reservation that does not fit is refused, and fits again once a call settles below its hold', () => {
    const [sql] = separateHandles(database, 1) as [ReturnType<typeof separateHandles>[number]];
    try {
      expect(reserveBudget(sql, 'pr', 0.6, 1)).toBe(true);
      expect(reserveBudget(sql, 'pr', 0.5, 1)).toBe(false);
      settleBudget(sql, 'pr', 0.6, 0.2);
      expect(budgetState(sql, 'pr')).toEqual({ spentUsd: 0.2, reservedUsd: 0 });
      expect(reserveBudget(sql, 'pr', 0.8, 1)).toBe(true);
      expect(reserveBudget(sql, 'pr', 0.000001, 1)).toBe(false);
      expect(() => settleBudget(sql, 'other', 0.1, 0.1)).toThrow('no shared budget other to settle');
      expect(() => reserveBudget(sql, 'pr', -1, 1)).toThrow(RangeError);
    } finally {
      sql.close();
    }
  });
});
