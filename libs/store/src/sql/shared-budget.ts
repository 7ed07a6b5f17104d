import type { SyncSql } from './sync-sql.js';

/**
 * A budget many processes spend from at once (the shards of one pull request): reserve before a
 * call, settle with what it cost after. Amounts are kept in micro-dollars so that sums are exact.
 *
 * The reservation is one conditional UPDATE: it only adds when spent + reserved + amount stays
 * within the limit. PostgreSQL locks the row for the update and checks the condition again against
 * the newest row once a concurrent update commits; SQLite runs one writer at a time. Either way no
 * two reservations can both pass against the same remainder.
 */
export interface BudgetState {
  spentUsd: number;
  reservedUsd: number;
}

const micros = (usd: number): number => Math.round(usd * 1_000_000);
const usd = (value: number): number => value / 1_000_000;

/**
 * Holds `amountUsd` of the budget `key` if it fits under `limitUsd`; returns whether it did. A key
 * seen for the first time starts at nothing spent.
 */
export function reserveBudget(sql: SyncSql, key: string, amountUsd: number, limitUsd: number): boolean {
  if (!(amountUsd >= 0)) throw new RangeError(`a reservation must be 0 or more, not ${amountUsd}`);
  sql.run('INSERT INTO shared_budgets (key) VALUES (?) ON CONFLICT (key) DO NOTHING', [key]);
  const amount = micros(amountUsd);
  const row = sql.get(
    `UPDATE shared_budgets SET reserved_micros = reserved_micros + ?
     WHERE key = ? AND spent_micros + reserved_micros + ? <= ?
     RETURNING key`,
    [amount, key, amount, micros(limitUsd)],
  );
  return row !== undefined;
}

/** Releases a reservation of `reservedUsd` and counts what the call actually cost. */
export function settleBudget(sql: SyncSql, key: string, reservedUsd: number, actualUsd: number): void {
  const { changes } = sql.run('UPDATE shared_budgets SET reserved_micros = reserved_micros - ?, spent_micros = spent_micros + ? WHERE key = ?', [
    micros(reservedUsd),
    micros(actualUsd),
    key,
  ]);
  if (changes !== 1) throw new Error(`no shared budget ${key} to settle`);
}

/** What the budget `key` has spent and holds; zero for a key never reserved from. */
export function budgetState(sql: SyncSql, key: string): BudgetState {
  const row = sql.get<{ spent_micros: number; reserved_micros: number }>('SELECT spent_micros, reserved_micros FROM shared_budgets WHERE key = ?', [key]);
  return { spentUsd: usd(Number(row?.spent_micros ?? 0)), reservedUsd: usd(Number(row?.reserved_micros ?? 0)) };
}
