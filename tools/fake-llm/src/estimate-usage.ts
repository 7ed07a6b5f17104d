/**
 * Token usage for replies whose script does not state it. The estimate (a quarter of the
 * characters, rounded up, at least 1) is crude on purpose: it only has to be stable, non-zero and
 * grow with the text, so that cost and budget code has something real to add up.
 */
import type { NormalisedRequest } from './normalise-request.js';
import type { ScriptedReply } from './script-schema.js';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  /** Of input_tokens, read from the prompt cache (scripted only; absent otherwise). */
  cached_input_tokens?: number;
  /** Of input_tokens, written to Anthropic's prompt cache (scripted only; absent otherwise). */
  cache_write_input_tokens?: number;
}

/** ceil(characters / 4), at least 1. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Scripted usage where given, the estimate for each side that is not. */
export function usageFor(request: NormalisedRequest, reply: ScriptedReply): Usage {
  return {
    input_tokens: reply.usage?.input_tokens ?? estimateTokens(requestText(request)),
    output_tokens: reply.usage?.output_tokens ?? estimateTokens(replyText(reply)),
    ...(reply.usage?.cached_input_tokens !== undefined ? { cached_input_tokens: reply.usage.cached_input_tokens } : {}),
    ...(reply.usage?.cache_write_input_tokens !== undefined ? { cache_write_input_tokens: reply.usage.cache_write_input_tokens } : {}),
  };
}

/** The system prompt, every message's text and every tool call's arguments. */
export function requestText(request: NormalisedRequest): string {
  const messageTexts = request.messages.flatMap((message) => [message.content, ...message.toolCalls.map((call) => call.arguments)]);
  return [request.system, ...messageTexts].join('');
}

function replyText(reply: ScriptedReply): string {
  const callTexts = (reply.tool_calls ?? []).map((call) => call.name + JSON.stringify(call.args ?? {}));
  return [replyContentText(reply.content), ...callTexts].join('');
}

/** Scripted content as the text the model "wrote": JSON content is serialised. */
export function replyContentText(content: ScriptedReply['content']): string {
  if (content === undefined) return '';
  return typeof content === 'string' ? content : JSON.stringify(content);
}
