import type { CallContext, ChatMessage, CompletionRequest, CompletionResponse, Provider, ToolCall } from '@parley/core';
import type OpenAI from 'openai';
import type { ResponseCreateParamsNonStreaming, ResponseInputItem } from 'openai/resources/responses/responses';
import { parseToolArguments, safeStringify, type OpenAiProviderOptions } from './openai-provider.js';
import { ProviderError } from './provider-error.js';
import { callSdk, lazySdkClient } from './sdk-client.js';

/**
 * A provider on the real `openai` SDK's Responses API (`responses.create`), the API new OpenAI
 * agents are built on.
 *
 * Every call sends the whole conversation as `input` items and `store: false`, never a
 * `previous_response_id`: a request then holds everything that decides its answer, so its
 * recording key is stable and a replay needs no server-side state (a stored response id would
 * differ on every recording and expire at OpenAI), and no conversation is kept by the provider.
 */
export function createOpenAiResponsesProvider(options: OpenAiProviderOptions): Provider {
  const getClient = lazySdkClient(async () => (await import('openai')).default, options);
  return {
    async complete(request: CompletionRequest, context: CallContext, signal?: AbortSignal): Promise<CompletionResponse> {
      const started = performance.now();
      const response = await callSdk(getClient, signal, context, 'openai-responses', (openai, callSignal) =>
        openai.responses.create(toResponsesParams(request), callSignal ? { signal: callSignal } : {}),
      );
      return fromResponse(response, performance.now() - started, context);
    },
  };
}

function toResponsesParams(request: CompletionRequest): ResponseCreateParamsNonStreaming {
  return {
    model: request.model,
    store: false,
    ...(request.system !== undefined ? { instructions: request.system } : {}),
    input: request.messages.flatMap(toInputItems),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            name: tool.name,
            ...(tool.description ? { description: tool.description } : {}),
            parameters: tool.parameters,
            // Strict mode rewrites optional parameters as required; the scenario's tools say what they say.
            strict: false,
          })),
        }
      : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.max_tokens !== undefined ? { max_output_tokens: request.max_tokens } : {}),
    ...(request.response_schema
      ? { text: { format: { type: 'json_schema' as const, name: request.response_schema.name, schema: request.response_schema.schema, strict: true } } }
      : {}),
  };
}

/** One chat message as Responses input items: an assistant turn with tool calls becomes several. */
function toInputItems(message: ChatMessage): ResponseInputItem[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: message.content }];
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.tool_call_id, output: message.content }];
    case 'assistant':
      return [
        ...(message.content !== '' ? [{ role: 'assistant' as const, content: message.content }] : []),
        ...(message.tool_calls ?? []).map((call, index) => ({
          type: 'function_call' as const,
          call_id: call.id ?? `call_${index + 1}`,
          name: call.name,
          arguments: JSON.stringify(call.args),
        })),
      ];
  }
}

function fromResponse(response: OpenAI.Responses.Response, latencyMs: number, context: CallContext): CompletionResponse {
  if (!Array.isArray(response?.output)) {
    throw new ProviderError('malformed_response', 'openai-responses answered without an output list', {
      context,
      details: safeStringify(response),
    });
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content) if (part.type === 'output_text') texts.push(part.text);
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id, name: item.name, args: parseToolArguments(item.arguments) });
    }
  }
  return {
    content: texts.join(''),
    tool_calls: toolCalls,
    usage: {
      input_tokens: response.usage?.input_tokens ?? 0,
      output_tokens: response.usage?.output_tokens ?? 0,
      ...((response.usage?.input_tokens_details?.cached_tokens ?? 0) > 0 ? { cached_input_tokens: response.usage!.input_tokens_details.cached_tokens } : {}),
    },
    finish_reason: finishReasonOf(response, toolCalls.length > 0),
    model: response.model,
    latency_ms: Math.round(latencyMs),
  };
}

/** The Chat Completions finish reason the rest of Parley speaks, from a response's status. */
function finishReasonOf(response: OpenAI.Responses.Response, calledTools: boolean): string {
  if (response.status === 'incomplete') return response.incomplete_details?.reason === 'content_filter' ? 'content_filter' : 'length';
  return calledTools ? 'tool_calls' : 'stop';
}
