import type { Provider } from '@parley/core';
import type { ModelRef } from '@parley/config';
import { createLiveProvider, resilientProvider, type RetryDependencies } from '@parley/providers';

/**
 * A judge model called live outside a run (`parley compare --pairwise`): the real SDK with the
 * same retries (429, 5xx, timeouts, honouring Retry-After) as a run's calls. Keys come from the
 * environment only; the model's `base_url` and `api_key_env` apply as they do for agents.
 */
export function liveJudgeProvider(
  model: ModelRef,
  env: NodeJS.ProcessEnv,
  settings: { timeoutMs?: number; maxRetries?: number; dependencies?: RetryDependencies } = {},
): Provider {
  const live = createLiveProvider(
    {
      kind: model.provider,
      ...(model.base_url ? { baseUrl: model.base_url } : {}),
      ...(model.api_key_env ? { apiKeyEnv: model.api_key_env } : {}),
      ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
    },
    env,
  );
  return resilientProvider(live, {
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    retry: settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {},
    ...(settings.dependencies ? { dependencies: settings.dependencies } : {}),
  });
}
