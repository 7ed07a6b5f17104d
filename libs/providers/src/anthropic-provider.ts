import type { CallContext, ChatMessage, CompletionRequest, CompletionResponse, Provider, TokenUsage, ToolCall } from '@parley/core';
import type Anthropic from '@anthropic-ai/sdk';
import { ProviderError } from './provider-error.js';
import { callSdk, lazySdkClient, type SdkClientOptions } from './sdk-client.js';

export type AnthropicProviderOptions = SdkClientOptions;

/** Anthropic requires max_tokens; used when the agent or judge config gives none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;
/** The forced tool through which a schema-constrained answer comes back (judges answer JSON: docs/file-formats.md, "Judge metrics"). */
export const STRUCTURED_ANSWER_TOOL = 'respond';

/** A provider on the real `@anthropic-ai/sdk` (Messages API), loaded on the first call. */
export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const getClient = lazySdkClient(async () => (await import('@anthropic-ai/sdk')).default, options);
  return {
    async complete(request: CompletionRequest, context: CallContext, signal?: AbortSignal): Promise<CompletionResponse> {
      const started = performance.now();
      const message = (await callSdk(getClient, signal, context, 'anthropic', (anthropic, callSignal) =>
        anthropic.messages.create(toAnthropicParams(request), callSignal ? { signal: callSignal } : {}),
      )) as Anthropic.Messages.Message;
      return fromAnthropicMessage(message, request, performance.now() - started, context);
    },
  };
}

export function toAnthropicParams(request: CompletionRequest): Anthropic.Messages.MessageCreateParamsNonStreaming {
  const tools: Anthropic.Messages.Tool[] = (request.tools ?? []).map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: tool.parameters as Anthropic.Messages.Tool.InputSchema,
  }));
  if (request.response_schema) {
    tools.push({
      name: STRUCTURED_ANSWER_TOOL,
      description: `Give your answer as ${request.response_schema.name}.`,
      input_schema: request.response_schema.schema as Anthropic.Messages.Tool.InputSchema,
    });
  }
  return {
    model: request.model,
    max_tokens: request.max_tokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: toAnthropicMessages(request.messages),
    ...(request.system !== undefined
      ? { system: request.cache_system ? [{ type: 'text' as const, text: request.system, cache_control: { type: 'ephemeral' as const } }] : request.system }
      : {}),
    ...(tools.length ? { tools } : {}),
    ...(request.response_schema ? { tool_choice: { type: 'tool' as const, name: STRUCTURED_ANSWER_TOOL } } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
}

/** Consecutive tool results become one user message of tool_result blocks, as the API requires. */
function toAnthropicMessages(messages: ChatMessage[]): Anthropic.Messages.MessageParam[] {
  const out: Anthropic.Messages.MessageParam[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      out.push({ role: 'user', content: message.content });
    } else if (message.role === 'assistant') {
      const blocks: Anthropic.Messages.ContentBlockParam[] = [];
      if (message.content) blocks.push({ type: 'text', text: message.content });
      for (const [index, call] of (message.tool_calls ?? []).entries()) {
        blocks.push({ type: 'tool_use', id: call.id ?? `toolu_${index + 1}`, name: call.name, input: call.args });
      }
      out.push({ role: 'assistant', content: blocks });
    } else {
      const block: Anthropic.Messages.ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: message.tool_call_id,
        content: message.content,
      };
      const previous = out.at(-1);
      if (previous?.role === 'user' && Array.isArray(previous.content) && previous.content.every(isToolResult)) {
        (previous.content as Anthropic.Messages.ContentBlockParam[]).push(block);
      } else {
        out.push({ role: 'user', content: [block] });
      }
    }
  }
  return out;
}

function isToolResult(block: unknown): boolean {
  return (block as { type?: string }).type === 'tool_result';
}

export function fromAnthropicMessage(
  message: Anthropic.Messages.Message,
  request: CompletionRequest,
  latencyMs: number,
  context: CallContext,
): CompletionResponse {
  if (!message || !Array.isArray(message.content)) {
    throw new ProviderError('malformed_response', 'anthropic answered without content blocks', {
      context,
      details: JSON.stringify(message)?.slice(0, 2000),
    });
  }
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') {
      const input = (block.input ?? {}) as Record<string, unknown>;
      if (request.response_schema && block.name === STRUCTURED_ANSWER_TOOL) text += JSON.stringify(input);
      else toolCalls.push({ id: block.id, name: block.name, args: input });
    }
  }
  return {
    content: text,
    tool_calls: toolCalls,
    usage: anthropicUsage(message.usage),
    finish_reason: message.stop_reason ?? 'end_turn',
    model: message.model,
    latency_ms: Math.round(latencyMs),
  };
}

/**
 * Anthropic counts cached input apart: `input_tokens` is only what was neither read from nor
 * written to the cache. Parley's `input_tokens` is all of it, as OpenAI's `prompt_tokens` is.
 */
function anthropicUsage(usage: Anthropic.Messages.Usage | undefined): TokenUsage {
  const read = usage?.cache_read_input_tokens ?? 0;
  const written = usage?.cache_creation_input_tokens ?? 0;
  return {
    input_tokens: (usage?.input_tokens ?? 0) + read + written,
    output_tokens: usage?.output_tokens ?? 0,
    ...(read > 0 ? { cached_input_tokens: read } : {}),
    ...(written > 0 ? { cache_write_input_tokens: written } : {}),
  };
}
