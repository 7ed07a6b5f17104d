import type { CallRole, RunMode } from '@parley/core';
import type { CallRecord } from '@parley/providers';
import type { ModelSpend } from '@parley/store';

/**
 * Adds up what a run pays each model, for `parley cost`: only calls that went to a provider count.
 * Replayed answers cost nothing, so in replay mode only live judging (`--judge live`) spends, and a
 * live run with `--judge replay` pays for its agent and simulator calls only.
 */
export class ModelSpendTally {
  private readonly rows = new Map<string, ModelSpend>();

  constructor(
    private readonly mode: RunMode,
    private readonly judgeMode: 'live' | 'replay' | undefined,
  ) {}

  /** `cacheSaving`: what the prompt cache saved on the call (cacheSavingOfCall), when priced. */
  add(call: CallRecord, usd: number | null, cacheSaving: number | null = null): void {
    if (!this.paid(call.role)) return;
    const key = `${call.provider}\u0000${call.model}\u0000${call.role}`;
    let row = this.rows.get(key);
    if (!row) {
      row = { provider: call.provider, model: call.model, role: call.role, calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, unpriced_calls: 0, cached_input_tokens: 0, cache_saving_usd: 0, cache_write_input_tokens: 0 };
      this.rows.set(key, row);
    }
    row.calls += 1;
    row.input_tokens += call.usage.input_tokens;
    row.output_tokens += call.usage.output_tokens;
    row.cached_input_tokens += call.usage.cached_input_tokens ?? 0;
    row.cache_write_input_tokens += call.usage.cache_write_input_tokens ?? 0;
    if (usd === null) row.unpriced_calls += 1;
    else {
      row.cost_usd += usd;
      row.cache_saving_usd += cacheSaving ?? 0;
    }
  }

  /** The spend so far, one row per provider, model and role. */
  spend(): ModelSpend[] {
    return [...this.rows.values()].map((row) => ({ ...row }));
  }

  /** Whether calls in this role reach a provider in this run (and so cost money and count against a budget). */
  paid(role: CallRole): boolean {
    if (role === 'judge') return this.judgeMode !== undefined ? this.judgeMode === 'live' : this.mode !== 'replay';
    return this.mode !== 'replay';
  }
}
