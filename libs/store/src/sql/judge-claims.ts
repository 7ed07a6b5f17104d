import type { SyncSql } from './sync-sql.js';

/**
 * Claim-or-await for a judge verdict shared by many processes: the first to claim a key judges
 * it; the others wait and read the verdict it stores. A holder that died leaves its claim behind
 * with a lease: once the lease is past, the next claimer takes the key over.
 *
 * Each check is one synchronous statement; waiting between checks is polling with an injected
 * clock and sleep: it works the same on SQLite and PostgreSQL, and tests drive time instead of
 * sleeping.
 */
export type ClaimOutcome =
  | { kind: 'claimed' }
  | { kind: 'judged'; valueJson: string }
  | { kind: 'held'; holder: string; leaseUntilMs: number };

/**
 * Tries once: claims `key` for `holder` when nobody holds it (or its holder's lease is past and no
 * verdict was stored), else says who holds it or returns the stored verdict.
 */
export function claimVerdict(sql: SyncSql, key: string, holder: string, nowMs: number, leaseMs: number): ClaimOutcome {
  for (;;) {
    const taken = sql.get(
      `INSERT INTO judge_claims (key, holder, lease_until_ms) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, lease_until_ms = excluded.lease_until_ms
       WHERE judge_claims.value_json IS NULL AND judge_claims.lease_until_ms < ?
       RETURNING holder`,
      [key, holder, nowMs + leaseMs, nowMs],
    );
    if (taken !== undefined) return { kind: 'claimed' };
    const row = sql.get<{ holder: string; lease_until_ms: number; value_json: string | null }>(
      'SELECT holder, lease_until_ms, value_json FROM judge_claims WHERE key = ?',
      [key],
    );
    // Only a claim released between the two statements leads to no row: try again.
    if (row === undefined) continue;
    if (row.value_json !== null) return { kind: 'judged', valueJson: row.value_json };
    return { kind: 'held', holder: row.holder, leaseUntilMs: Number(row.lease_until_ms) };
  }
}

/**
 * Stores the verdict of a claim. Returns false when the claim is no longer `holder`'s (its lease
 * ran out and another process took the key over): that process's verdict counts, not this one.
 */
export function storeVerdict(sql: SyncSql, key: string, holder: string, valueJson: string): boolean {
  const { changes } = sql.run('UPDATE judge_claims SET value_json = ? WHERE key = ? AND holder = ? AND value_json IS NULL', [valueJson, key, holder]);
  return changes === 1;
}

/**
 * Gives a claim up without a verdict in it: the verdict went elsewhere (the judge cache), or the
 * judging failed and whoever asks next judges afresh. False when the claim was no longer `holder`'s.
 */
export function releaseClaim(sql: SyncSql, key: string, holder: string): boolean {
  return sql.run('DELETE FROM judge_claims WHERE key = ? AND holder = ? AND value_json IS NULL', [key, holder]).changes === 1;
}

/** Extends a claim still being judged (a slow judge call); false when it is no longer `holder`'s. */
export function renewClaim(sql: SyncSql, key: string, holder: string, nowMs: number, leaseMs: number): boolean {
  const { changes } = sql.run('UPDATE judge_claims SET lease_until_ms = ? WHERE key = ? AND holder = ? AND value_json IS NULL', [nowMs + leaseMs, key, holder]);
  return changes === 1;
}

export interface AwaitVerdictOptions {
  leaseMs: number;
  pollMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * Claims `key` or waits for whoever holds it: resolves `claimed` (this process judges, then calls
 * storeVerdict) or `judged` with the verdict another process stored.
 */
export async function claimOrAwaitVerdict(sql: SyncSql, key: string, holder: string, options: AwaitVerdictOptions): Promise<Exclude<ClaimOutcome, { kind: 'held' }>> {
  for (;;) {
    const outcome = claimVerdict(sql, key, holder, options.now(), options.leaseMs);
    if (outcome.kind !== 'held') return outcome;
    await options.sleep(options.pollMs);
  }
}
