/** Bodies in the exact shape the `openai` SDK parses: a `chat.completion` and the error envelope. */
import { STATUS_CODES } from 'node:http';
import { replyContentText, usageFor } from './estimate-usage.js';
import { finishReasonFor } from './finish-reason.js';
import type { NormalisedRequest } from './normalise-request.js';
import { FAKE_CREATED_SECONDS, padSequence } from './response-ids.js';
import type { ScriptedReply } from './script-schema.js';

interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAiChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: Array<{
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      refusal: null;
      tool_calls?: OpenAiToolCall[];
    };
    logprobs: null;
    finish_reason: string;
  }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details?: { cached_tokens: number } };
}

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: null; code: string | null };
}

/**
 * The completion for a scripted reply. With `response_format: json_schema` the scripted content is
 * returned as it is (JSON content written as a YAML map is serialised), exactly like a model that
 * followed the schema; the fake never checks the content against the schema.
 *
 * @param sequence the server's call counter, used for the deterministic ids.
 */
export function buildOpenAiCompletion(reply: ScriptedReply, request: NormalisedRequest, sequence: number): OpenAiChatCompletion {
  const toolCalls: OpenAiToolCall[] = (reply.tool_calls ?? []).map((call, index) => ({
    id: call.id ?? `call_fake_${padSequence(sequence)}_${index + 1}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
  }));
  const content = replyContentText(reply.content);
  const usage = usageFor(request, reply);
  return {
    id: `chatcmpl-fake-${padSequence(sequence)}`,
    object: 'chat.completion',
    created: FAKE_CREATED_SECONDS,
    model: request.model,
    system_fingerprint: 'fp_fake_llm',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          // The real API sends null, not '', when the model only called tools.
          content: content === '' && toolCalls.length > 0 ? null : content,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonFor('openai', reply.finish_reason, toolCalls.length > 0),
      },
    ],
    usage: {
      prompt_tokens: usage.input_tokens,
      completion_tokens: usage.output_tokens,
      total_tokens: usage.input_tokens + usage.output_tokens,
      // Scripted prompt caching only: OpenAI reports the cached part of the prompt here.
      ...(usage.cached_input_tokens !== undefined ? { prompt_tokens_details: { cached_tokens: Math.min(usage.cached_input_tokens, usage.input_tokens) } } : {}),
    },
  };
}

/** OpenAI's error envelope, with the `type`/`code` the real API uses for common statuses. */
export function buildOpenAiError(status: number, message?: string): OpenAiErrorBody {
  const [type, code] = openAiErrorKind(status);
  return { error: { message: message ?? `${STATUS_CODES[status] ?? 'Error'} (fake-llm)`, type, param: null, code } };
}

function openAiErrorKind(status: number): [type: string, code: string | null] {
  if (status === 401) return ['invalid_request_error', 'invalid_api_key'];
  if (status === 404) return ['invalid_request_error', 'model_not_found'];
  if (status === 429) return ['requests', 'rate_limit_exceeded'];
  if (status >= 500) return ['server_error', null];
  return ['invalid_request_error', null];
}
