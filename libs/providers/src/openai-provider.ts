import type {
  CallContext,
  ChatMessage,
  CompletionRequest,
  CompletionResponse,
  Provider,
  ToolCall,
} from '@parley/core';
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { ProviderError } from './provider-error.js';
import { callSdk, lazySdkClient, type SdkClientOptions } from './sdk-client.js';

/** `baseURL`: OpenAI-compatible servers (vLLM, Ollama, llama.cpp, tools/fake-llm) take their own. */
export type OpenAiProviderOptions = SdkClientOptions;

/**
 * A provider on the real `openai` SDK (Chat Completions). The SDK is imported on the first call,
 * so replay runs and headless commands that make no live call never load it. Retries are ours
 * (a wrapper), so the SDK's own are off.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): Provider {
  const getClient = lazySdkClient(async () => (await import('openai')).default, options);
  return {
    async complete(request: CompletionRequest, context: CallContext, signal?: AbortSignal): Promise<CompletionResponse> {
      const started = performance.now();
      const completion = await callSdk(getClient, signal, context, 'openai', (openai, callSignal) =>
        openai.chat.completions.create(toOpenAiParams(request), callSignal ? { signal: callSignal } : {}),
      );
      return fromOpenAiCompletion(completion, performance.now() - started, context);
    },
  };
}

export function toOpenAiParams(request: CompletionRequest): ChatCompletionCreateParamsNonStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system !== undefined) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(toOpenAiMessage(message));
  return {
    model: request.model,
    messages,
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: {
              name: tool.name,
              ...(tool.description ? { description: tool.description } : {}),
              parameters: tool.parameters,
            },
          })),
        }
      : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.max_tokens !== undefined ? { max_tokens: request.max_tokens } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.response_schema
      ? {
          response_format: {
            type: 'json_schema' as const,
            json_schema: { name: request.response_schema.name, schema: request.response_schema.schema, strict: true },
          },
        }
      : {}),
  };
}

function toOpenAiMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.tool_calls?.length
          ? {
              tool_calls: message.tool_calls.map((call, index) => ({
                id: call.id ?? `call_${index + 1}`,
                type: 'function' as const,
                function: { name: call.name, arguments: JSON.stringify(call.args) },
              })),
            }
          : {}),
      };
  }
}

export function fromOpenAiCompletion(
  completion: OpenAI.Chat.Completions.ChatCompletion,
  latencyMs: number,
  context: CallContext,
): CompletionResponse {
  const choice = completion?.choices?.[0];
  if (!choice?.message) {
    throw new ProviderError('malformed_response', 'openai answered without a choice/message', {
      context,
      details: safeStringify(completion),
    });
  }
  const toolCalls: ToolCall[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    toolCalls.push({ id: call.id, name: call.function.name, args: parseToolArguments(call.function.arguments) });
  }
  return {
    content: choice.message.content ?? '',
    tool_calls: toolCalls,
    usage: {
      input_tokens: completion.usage?.prompt_tokens ?? 0,
      output_tokens: completion.usage?.completion_tokens ?? 0,
      // Automatic prefix caching: the static start of a prompt seen before is read from the cache.
      ...cachedTokens(completion.usage?.prompt_tokens_details?.cached_tokens),
    },
    finish_reason: choice.finish_reason ?? 'stop',
    model: completion.model,
    latency_ms: Math.round(latencyMs),
  };
}

/** Tool arguments arrive as a JSON string; a model that writes broken JSON keeps its raw text. */
export function parseToolArguments(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { _value: parsed };
  } catch {
    return { _unparsed_arguments: text };
  }
}

export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value).slice(0, 2000);
  } catch {
    return String(value);
  }
}

/** OpenAI's `prompt_tokens_details.cached_tokens`, kept only when some input came from the cache. */
function cachedTokens(cached: number | undefined): { cached_input_tokens?: number } {
  return cached !== undefined && cached > 0 ? { cached_input_tokens: cached } : {};
}
