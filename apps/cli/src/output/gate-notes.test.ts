import { describe, expect, it } from 'vitest';
import { buildReport, type RunReport } from '@parley/reports';
import { gateNotes } from './gate-notes.js';

const info = { run_id: 'r1', suite: 'demo', parley_version: '0.1.0', mode: 'live' as const, strict: false, started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:00:01.000Z', duration_ms: 1000 };
const report = buildReport(info, [
  { scenario_id: 'a', agent: 'x', gate: 'blocking', tags: [], metadata_only: false, status: 'pass', reason: 'ok', metrics: [], cost: { input_tokens: 1, output_tokens: 1, usd: 0.0044, calls: 1 } },
]);

function withBudget(budget: RunReport['budget']): RunReport {
  return { ...report, budget };
}

describe('gateNotes: the budget line', () => {
  it('says what the run spent of its budget and what the budget made it give up', () => {
    const { out } = gateNotes(
      withBudget({
        limit_usd: 0.03,
        exhausted: true,
        downgrades: ["1 scenario cut short (the next call's worst case did not fit the budget): b", '1 blocking scenario unchecked: it is warn, which fails the run under --strict'],
        unchecked_blocking: 1,
        spent_usd: 0.0043505,
      }),
    );
    expect(out).toBe(
      "budget $0.0300, exhausted: $0.0044 spent; 1 scenario cut short (the next call's worst case did not fit the budget): b; 1 blocking scenario unchecked: it is warn, which fails the run under --strict\n",
    );
  });

  it('says so when calls to unpriced models were not counted, and names a shard share', () => {
    const unpriced = gateNotes(withBudget({ limit_usd: 1, exhausted: false, downgrades: ['1 call to models without a known price not counted against the budget (add them under pricing:)'], unchecked_blocking: 0, spent_usd: 0 }));
    expect(unpriced.out).toBe('budget $1.0000, not reached: $0.0000 spent; 1 call to models without a known price not counted against the budget (add them under pricing:)\n');
    const shard = gateNotes(withBudget({ limit_usd: 5, exhausted: false, downgrades: [], unchecked_blocking: 0, spent_usd: 1.25, split: { total_usd: 20, shards: 4 } }));
    expect(shard.out).toBe("budget $5.0000 (this shard's share of $20.0000 for 4 shards), not reached: $1.2500 spent\n");
  });

  it('prints nothing about a budget when none applied, nor about the suite budget of a replay that paid nothing', () => {
    expect(gateNotes(report).out).toBe('');
    const idle = { limit_usd: 1, exhausted: false, downgrades: [], unchecked_blocking: 0, spent_usd: 0 };
    expect(gateNotes({ ...withBudget(idle), mode: 'replay' }).out).toBe('');
    // A replay judged live pays: its budget line stays.
    expect(gateNotes({ ...withBudget({ ...idle, spent_usd: 0.012 }), mode: 'replay' }).out).toBe('budget $1.0000, not reached: $0.0120 spent\n');
    expect(gateNotes(withBudget(idle)).out).toBe('budget $1.0000, not reached: $0.0000 spent\n');
  });
});
