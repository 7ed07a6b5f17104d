/** Bodies in the exact shape the `@anthropic-ai/sdk` parses: a `message` and the error envelope. */
import { STATUS_CODES } from 'node:http';
import { replyContentText, usageFor } from './estimate-usage.js';
import { finishReasonFor } from './finish-reason.js';
import { isRecord } from './json-value.js';
import type { NormalisedRequest } from './normalise-request.js';
import { padSequence } from './response-ids.js';
import type { ScriptedReply } from './script-schema.js';

type AnthropicContentBlock =
  | { type: 'text'; text: string; citations: null }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicContentBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
  };
}

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

/**
 * The message for a scripted reply.
 *
 * When the request forces a tool (`tool_choice: {type: "tool", name}`), as structured-output
 * callers such as judges do, and the reply has no `tool_calls` of its own, content that is a JSON
 * object becomes that tool's `input` (a `tool_use` block, stop_reason `tool_use`). Content that is
 * not a JSON object stays text, which is what a misbehaving model would send.
 *
 * @param sequence the server's call counter, used for the deterministic ids.
 */
export function buildAnthropicMessage(reply: ScriptedReply, request: NormalisedRequest, sequence: number): AnthropicMessage {
  const toolUseId = (index: number) => `toolu_fake_${padSequence(sequence)}_${index + 1}`;
  const forcedInput = reply.tool_calls === undefined && request.forcedTool !== undefined ? jsonObjectOf(reply.content) : undefined;

  const content: AnthropicContentBlock[] = [];
  if (forcedInput && request.forcedTool) {
    content.push({ type: 'tool_use', id: toolUseId(0), name: request.forcedTool, input: forcedInput });
  } else {
    const text = replyContentText(reply.content);
    if (text !== '') content.push({ type: 'text', text, citations: null });
    for (const [index, call] of (reply.tool_calls ?? []).entries()) {
      content.push({ type: 'tool_use', id: call.id ?? toolUseId(index), name: call.name, input: call.args ?? {} });
    }
  }
  // The API never sends an empty content list for a plain answer; an empty text block keeps
  // clients that read content[0] working when a script deliberately replies with ''.
  if (content.length === 0) content.push({ type: 'text', text: '', citations: null });

  const usage = usageFor(request, reply);
  const cacheRead = request.cacheControl ? Math.min(usage.cached_input_tokens ?? 0, usage.input_tokens) : 0;
  const cacheWrite = request.cacheControl ? Math.min(usage.cache_write_input_tokens ?? 0, usage.input_tokens - cacheRead) : 0;
  const hasToolUse = content.some((block) => block.type === 'tool_use');
  return {
    id: `msg_fake_${padSequence(sequence)}`,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content,
    stop_reason: finishReasonFor('anthropic', reply.finish_reason, hasToolUse),
    stop_sequence: null,
    // Anthropic's input_tokens leaves out what was read from and written to the cache, and both
    // happen only for a prompt marked with cache_control.
    usage: {
      input_tokens: usage.input_tokens - cacheRead - cacheWrite,
      output_tokens: usage.output_tokens,
      cache_creation_input_tokens: cacheWrite,
      cache_read_input_tokens: cacheRead,
    },
  };
}

/** Anthropic's error envelope, with the error `type` the real API uses for the status. */
export function buildAnthropicError(status: number, requestId: string, message?: string): AnthropicErrorBody {
  return {
    type: 'error',
    error: { type: anthropicErrorType(status), message: message ?? `${STATUS_CODES[status] ?? 'Error'} (fake-llm)` },
    request_id: requestId,
  };
}

function anthropicErrorType(status: number): string {
  const byStatus: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    402: 'billing_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    503: 'overloaded_error',
    529: 'overloaded_error',
  };
  return byStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** Content as a JSON object: a YAML map as is, or a string that parses to an object. */
function jsonObjectOf(content: ScriptedReply['content']): Record<string, unknown> | undefined {
  if (isRecord(content)) return content;
  if (typeof content !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(content);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
