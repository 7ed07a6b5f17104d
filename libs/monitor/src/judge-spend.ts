import type { BudgetView } from '@parley/judge';
import { cacheSavingOfCall, costOfCall, type CallRecord, type ModelPrice } from '@parley/providers';

/** What judge calls cost: USD (null once a model has no price), and the prompt-cache reads and what they saved. */
export class JudgeSpend {
  usd: number | null = 0;
  cachedInputTokens = 0;
  cacheSavingUsd: number | null = 0;

  constructor(private readonly pricing: Record<string, ModelPrice> | undefined) {}

  /** Counts one answered call. */
  addCall(call: CallRecord): void {
    const usd = costOfCall(call.model, call.usage, this.pricing);
    this.usd = this.usd === null || usd === null ? null : this.usd + usd;
    if ((call.usage.cached_input_tokens ?? 0) > 0 || (call.usage.cache_write_input_tokens ?? 0) > 0) {
      const saving = cacheSavingOfCall(call.model, call.usage, this.pricing);
      this.cachedInputTokens += call.usage.cached_input_tokens ?? 0;
      this.cacheSavingUsd = this.cacheSavingUsd === null || saving === null ? null : this.cacheSavingUsd + saving;
    }
  }

  /** Counts what another spend (one conversation's) came to. */
  add(other: JudgeSpend): void {
    this.usd = this.usd === null || other.usd === null ? null : this.usd + other.usd;
    this.cachedInputTokens += other.cachedInputTokens;
    this.cacheSavingUsd = this.cacheSavingUsd === null || other.cacheSavingUsd === null ? null : this.cacheSavingUsd + other.cacheSavingUsd;
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
}
