import type { CallContext, CompletionRequest, Provider } from '@parley/core';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, costOfCall, ProviderError, type ModelPrice } from '@parley/providers';
import type { ScenarioBudget } from './budget.js';

/**
 * The answer length assumed for a call that sets no `max_tokens` (OpenAI judges, agents without
 * it): the provider then stops at the model's own limit, which Parley does not know. Set
 * `max_tokens` on agents and the simulator for a bound that holds whatever the model.
 */
const UNCAPPED_OUTPUT_TOKENS = 16_384;

/**
 * The most one call can cost (USD), known before it is sent: every byte of what is sent counted as
 * an input token (a token of the byte-level tokenizers of these providers is at least one byte, and
 * the JSON sent is longer than the text the model reads), the whole `max_tokens` answered, and the
 * input written to Anthropic's prompt cache at its premium when the system prompt is cached.
 * Null when the model has no known price.
 */
export function callWorstCaseUsd(request: CompletionRequest, pricing: Record<string, ModelPrice> | undefined): number | null {
  const sent = JSON.stringify({ system: request.system, messages: request.messages, tools: request.tools, schema: request.response_schema });
  const inputTokens = Buffer.byteLength(sent, 'utf8');
  const outputTokens = request.max_tokens ?? (request.provider === 'anthropic' ? ANTHROPIC_DEFAULT_MAX_TOKENS : UNCAPPED_OUTPUT_TOKENS);
  return costOfCall(
    request.model,
    { input_tokens: inputTokens, output_tokens: outputTokens, ...(request.cache_system ? { cache_write_input_tokens: inputTokens } : {}) },
    pricing,
  );
}

/**
 * Which call a worst case is of, for the reason a refused call gives: its role and model, and when
 * it sets no `max_tokens` the length assumed and how to bound it (`agent gpt-4.1-mini, which sets
 * no max_tokens: 16,384 output tokens assumed; set max_tokens on the agent to lower it`).
 */
function worstCaseCall(request: CompletionRequest, context: CallContext): string {
  const call = `${context.role} ${request.model}`;
  if (request.max_tokens !== undefined || request.provider === 'anthropic') return call;
  const where = context.role === 'agent' ? 'set max_tokens on the agent to lower it' : context.role === 'simulator' ? 'set max_tokens under simulator: to lower it' : 'an OpenAI judge sets none';
  return `${call}, which sets no max_tokens: ${UNCAPPED_OUTPUT_TOKENS.toLocaleString('en-US')} output tokens assumed; ${where}`;
}

/**
 * A provider whose calls hold their worst case in the scenario's budget before they are sent, and
 * settle to what they cost when answered (a failed call costs nothing). A call whose worst case does
 * not fit is not sent: it fails with a `budget` error and the scenario is cut short.
 */
export function budgetedProvider(inner: Provider, budget: ScenarioBudget, pricing: Record<string, ModelPrice> | undefined): Provider {
  return {
    async complete(request, context, signal) {
      const worst = callWorstCaseUsd(request, pricing);
      if (worst === null) {
        const response = await inner.complete(request, context, signal);
        budget.unpricedCall();
        return response;
      }
      if (!budget.holdCall(worst, worstCaseCall(request, context))) throw new ProviderError('budget', `not sent: ${budget.refused}`, { context });
      let usd = 0;
      try {
        const response = await inner.complete(request, context, signal);
        usd = costOfCall(request.model, response.usage, pricing) ?? 0;
        return response;
      } finally {
        budget.settleCall(worst, usd);
      }
    },
  };
}
