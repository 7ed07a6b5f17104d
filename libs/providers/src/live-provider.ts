import type { CompletionRequest, Provider, ProviderKind } from '@parley/core';
import { createAnthropicProvider } from './anthropic-provider.js';
import { createOpenAiProvider } from './openai-provider.js';
import { createOpenAiResponsesProvider } from './openai-responses-provider.js';
import { ProviderError } from './provider-error.js';
import { connectTimeoutFromEnv } from './sdk-client.js';

export interface LiveProviderSettings {
  kind: ProviderKind;
  /** Overrides the environment's base URL (required for openai-compatible). */
  baseUrl?: string;
  /** Names the environment variable holding the key instead of the provider's default. */
  apiKeyEnv?: string;
  timeoutMs?: number;
}

const DEFAULT_KEY_ENV: Record<ProviderKind, string> = {
  openai: 'OPENAI_API_KEY',
  'openai-responses': 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  'openai-compatible': 'OPENAI_API_KEY',
};

/** Where a provider kind's calls go and with which key: the settings first, then the environment (keys only from there). */
export function providerConnection(settings: LiveProviderSettings, env: NodeJS.ProcessEnv): { keyVariable: string; apiKey: string | undefined; baseURL: string | undefined } {
  const keyVariable = settings.apiKeyEnv ?? DEFAULT_KEY_ENV[settings.kind];
  const baseURL = settings.baseUrl ?? (settings.kind === 'anthropic' ? env.ANTHROPIC_BASE_URL : env.OPENAI_BASE_URL);
  return { keyVariable, apiKey: env[keyVariable], baseURL };
}

/**
 * A provider that makes real calls. Keys come only from the environment (docs/file-formats.md,
 * "Suite"); a missing key becomes a `missing_api_key` error on the first call, so one scenario
 * errors instead of the run.
 */
export function createLiveProvider(settings: LiveProviderSettings, env: NodeJS.ProcessEnv): Provider {
  const { keyVariable, apiKey, baseURL } = providerConnection(settings, env);
  const timeoutMs = settings.timeoutMs;
  const connectTimeoutMs = connectTimeoutFromEnv(env);
  const limits = { ...(timeoutMs ? { timeoutMs } : {}), ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}) };
  if (settings.kind === 'anthropic') {
    return apiKey ? createAnthropicProvider({ apiKey, ...(baseURL ? { baseURL } : {}), ...limits }) : missingKey(keyVariable);
  }
  if (settings.kind === 'openai-compatible') {
    // Local servers (vLLM, Ollama, llama.cpp) usually take any key; the SDK insists on one.
    return createOpenAiProvider({ apiKey: apiKey ?? 'not-needed', ...(baseURL ? { baseURL } : {}), ...limits });
  }
  if (!apiKey) return missingKey(keyVariable);
  const options = { apiKey, ...(baseURL ? { baseURL } : {}), ...limits };
  return settings.kind === 'openai-responses' ? createOpenAiResponsesProvider(options) : createOpenAiProvider(options);
}

function missingKey(variable: string): Provider {
  return {
    async complete(_request: CompletionRequest, context) {
      throw new ProviderError('missing_api_key', `${variable} is not set: live calls need it (replay needs no key)`, { context });
    },
  };
}
