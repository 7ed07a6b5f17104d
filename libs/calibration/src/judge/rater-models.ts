import { ConfigError, PROVIDER_KINDS, type ProviderKind } from '@parley/core';
import type { ModelRef } from '@parley/config';
import type { CalibrationRater } from '../store/calibration-store.js';

/** A model that rates calibration items. */
export interface RaterModel {
  provider: ProviderKind;
  model: string;
  temperature?: number;
  base_url?: string;
  api_key_env?: string;
}

export type CalibrationRaters = { judge: RaterModel; cross_check?: RaterModel };

/**
 * The default judges, used when neither flags nor a suite name them (a Claude judge with a GPT-4.1
 * cross-check, as in the `judge:` example of docs/judges.md): Claude Opus 4.7 as the primary judge, GPT-4.1 as the cross-check.
 */
export const DEFAULT_RATERS: CalibrationRaters = {
  judge: { provider: 'anthropic', model: 'claude-opus-4-7', temperature: 0 },
  cross_check: { provider: 'openai', model: 'gpt-4.1', temperature: 0 },
};

const PROVIDERS: readonly ProviderKind[] = PROVIDER_KINDS;

/** `--judge anthropic:claude-opus-4-7` → a rater model (temperature 0: ratings should not wander). */
export function parseRaterFlag(flag: string, option: string): RaterModel {
  const separator = flag.indexOf(':');
  const provider = flag.slice(0, separator);
  const model = flag.slice(separator + 1);
  if (separator < 0 || !PROVIDERS.includes(provider as ProviderKind) || model === '') {
    throw new ConfigError(`${option} ${flag}: write PROVIDER:MODEL with PROVIDER one of ${PROVIDERS.join(', ')} (e.g. anthropic:claude-opus-4-7)`);
  }
  return { provider: provider as ProviderKind, model, temperature: 0 };
}

/** A suite's `judge.primary` / `judge.cross_check` as a rater model (its temperature, else 0). */
export function raterFromModelRef(ref: ModelRef): RaterModel {
  return {
    provider: ref.provider,
    model: ref.model,
    temperature: ref.temperature ?? 0,
    ...(ref.base_url !== undefined ? { base_url: ref.base_url } : {}),
    ...(ref.api_key_env !== undefined ? { api_key_env: ref.api_key_env } : {}),
  };
}

/** Flags first, then the suite's `judge:`, then {@link DEFAULT_RATERS}, per rater. */
export function resolveRaters(sources: {
  judgeFlag?: string;
  crossCheckFlag?: string;
  suiteJudge?: { primary?: ModelRef; cross_check?: ModelRef };
}): CalibrationRaters {
  const pick = (rater: CalibrationRater, flag: string | undefined, option: string, ref: ModelRef | undefined): RaterModel =>
    flag !== undefined ? parseRaterFlag(flag, option) : ref !== undefined ? raterFromModelRef(ref) : DEFAULT_RATERS[rater]!;
  return {
    judge: pick('judge', sources.judgeFlag, '--judge', sources.suiteJudge?.primary),
    cross_check: pick('cross_check', sources.crossCheckFlag, '--cross-check', sources.suiteJudge?.cross_check),
  };
}
