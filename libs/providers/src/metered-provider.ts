import type { CallRole, Provider, TokenUsage } from '@parley/core';
import type { ProviderServer } from './provider-server.js';

/** What a call cost, as the metering layer saw it. */
export interface CallRecord {
  role: CallRole;
  provider: string;
  model: string;
  usage: TokenUsage;
  latency_ms: number;
  /** The call's user turn (CallContext.turn): 0 for judges. */
  turn: number;
  /** The model the provider says answered (e.g. `gpt-4.1-mini-2025-04-14` for `gpt-4.1-mini`). */
  response_model?: string;
  /** Why the provider says the generation stopped, as it says it (`stop`, `tool_calls`, `end_turn`). */
  finish_reason?: string;
  /** The host and port of the provider's endpoint, when the caller knows it (a model call). */
  server?: ProviderServer;
}

/** Reports every answered call (live or replayed) so cost and usage can be summed per scenario. */
export function meteredProvider(inner: Provider, onCall: (call: CallRecord) => void, server?: ProviderServer): Provider {
  return {
    async complete(request, context, signal) {
      const response = await inner.complete(request, context, signal);
      onCall({
        role: context.role,
        provider: request.provider,
        model: request.model,
        usage: response.usage,
        latency_ms: response.latency_ms,
        turn: context.turn,
        response_model: response.model,
        finish_reason: response.finish_reason,
        ...(server !== undefined ? { server } : {}),
      });
      return response;
    },
  };
}
