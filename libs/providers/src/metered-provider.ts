import type { CallRole, Provider, TokenUsage } from '@parley/core';

/** What a call cost, as the metering layer saw it. */
export interface CallRecord {
  role: CallRole;
  provider: string;
  model: string;
  usage: TokenUsage;
  latency_ms: number;
  /** The call's user turn (CallContext.turn): 0 for judges. */
  turn: number;
}

/** Reports every answered call (live or replayed) so cost and usage can be summed per scenario. */
export function meteredProvider(inner: Provider, onCall: (call: CallRecord) => void): Provider {
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
      });
      return response;
    },
  };
}
