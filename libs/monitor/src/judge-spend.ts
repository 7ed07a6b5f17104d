import type { BudgetView } from '@parley/judge';
import { cacheSavingOfCall, costOfCall, type CallRecord, type ModelPrice } from '@parley/providers';
import type { JudgeModelSpend } from '@parley/store';

/**
 * What judge calls cost: USD (null once a model has no price), the prompt-cache reads and what they
 * saved, and per model what `parley cost` shows (with what batch prices saved under `--batch`).
 */
export class JudgeSpend {
  usd: number | null = 0;
  cachedInputTokens = 0;
  cacheSavingUsd: number | null = 0;
  private readonly byModel = new Map<string, JudgeModelSpend>();

  /**
   * `pricing` is what the calls cost (batch prices under `--batch`); `normalPricing`, given only for
   * batch calls, the prices they would have cost one by one: the difference is the batch saving.
   */
  constructor(
    private readonly pricing: Record<string, ModelPrice> | undefined,
    private readonly normalPricing?: Record<string, ModelPrice>,
  ) {}

  /** Counts one answered call. */
  addCall(call: CallRecord): void {
    const usd = costOfCall(call.model, call.usage, this.pricing);
    this.usd = this.usd === null || usd === null ? null : this.usd + usd;
    const row = this.rowOf(call.provider, call.model);
    row.calls += 1;
    row.input_tokens += call.usage.input_tokens;
    row.output_tokens += call.usage.output_tokens;
    if (usd === null) row.unpriced_calls += 1;
    else {
      row.cost_usd += usd;
      const normal = this.normalPricing !== undefined ? costOfCall(call.model, call.usage, this.normalPricing) : null;
      if (normal !== null) row.batch_saving_usd += normal - usd;
    }
    if ((call.usage.cached_input_tokens ?? 0) > 0 || (call.usage.cache_write_input_tokens ?? 0) > 0) {
      const saving = cacheSavingOfCall(call.model, call.usage, this.pricing);
      this.cachedInputTokens += call.usage.cached_input_tokens ?? 0;
      this.cacheSavingUsd = this.cacheSavingUsd === null || saving === null ? null : this.cacheSavingUsd + saving;
      row.cached_input_tokens += call.usage.cached_input_tokens ?? 0;
      row.cache_write_input_tokens += call.usage.cache_write_input_tokens ?? 0;
      row.cache_saving_usd += saving ?? 0;
    }
  }

  /** Counts what another spend (one conversation's) came to. */
  add(other: JudgeSpend): void {
    this.usd = this.usd === null || other.usd === null ? null : this.usd + other.usd;
    this.cachedInputTokens += other.cachedInputTokens;
    this.cacheSavingUsd = this.cacheSavingUsd === null || other.cacheSavingUsd === null ? null : this.cacheSavingUsd + other.cacheSavingUsd;
    for (const row of other.byModel.values()) {
      const mine = this.rowOf(row.provider, row.model);
      for (const key of ['calls', 'input_tokens', 'output_tokens', 'cost_usd', 'unpriced_calls', 'cached_input_tokens', 'cache_write_input_tokens', 'cache_saving_usd', 'batch_saving_usd'] as const) mine[key] += row[key];
    }
  }

  /** Per model, as the store records it. */
  models(): JudgeModelSpend[] {
    return [...this.byModel.values()].map((row) => ({ ...row }));
  }

  /** The budget this spend counts against: exhausted once it reaches the limit (never without one, or once unpriced). */
  budget(limitUsd: number | undefined): BudgetView {
    const spentUsd = (): number | null => this.usd;
    return {
      get exhausted() {
        const spent = spentUsd();
        return limitUsd !== undefined && spent !== null && spent >= limitUsd;
      },
      get spentUsd() {
        return spentUsd() ?? 0;
      },
      limitUsd: limitUsd ?? Number.POSITIVE_INFINITY,
    };
  }

  private rowOf(provider: string, model: string): JudgeModelSpend {
    const key = `${provider}\u0000${model}`;
    let row = this.byModel.get(key);
    if (row === undefined) {
      row = { provider, model, calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, unpriced_calls: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, cache_saving_usd: 0, batch_saving_usd: 0 };
      this.byModel.set(key, row);
    }
    return row;
  }
}
