/** A body in the exact shape the `openai` SDK's `responses.create` parses: a completed `response`. */
import { replyContentText, usageFor } from './estimate-usage.js';
import type { NormalisedRequest } from './normalise-request.js';
import { FAKE_CREATED_SECONDS, padSequence } from './response-ids.js';
import type { ScriptedReply } from './script-schema.js';

type OutputItem =
  | { type: 'message'; id: string; status: 'completed'; role: 'assistant'; content: Array<{ type: 'output_text'; text: string; annotations: [] }> }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: 'completed' };

export interface OpenAiResponse {
  id: string;
  object: 'response';
  created_at: number;
  status: 'completed' | 'incomplete';
  incomplete_details: { reason: string } | null;
  model: string;
  output: OutputItem[];
  usage: {
    input_tokens: number;
    input_tokens_details: { cached_tokens: number };
    output_tokens: number;
    output_tokens_details: { reasoning_tokens: number };
    total_tokens: number;
  };
}

/**
 * The response for a scripted reply: a `message` item with the text (when there is any) and one
 * `function_call` item per tool call. A scripted finish reason `length`/`max_tokens` makes the
 * response `incomplete` (max_output_tokens), as the real API reports a cut-off answer.
 */
export function buildResponsesResponse(reply: ScriptedReply, request: NormalisedRequest, sequence: number): OpenAiResponse {
  const id = padSequence(sequence);
  const content = replyContentText(reply.content);
  const usage = usageFor(request, reply);
  const cutOff = reply.finish_reason === 'length' || reply.finish_reason === 'max_tokens';
  const output: OutputItem[] = [
    ...(content !== ''
      ? [{ type: 'message' as const, id: `msg_fake_${id}`, status: 'completed' as const, role: 'assistant' as const, content: [{ type: 'output_text' as const, text: content, annotations: [] as [] }] }]
      : []),
    ...(reply.tool_calls ?? []).map((call, index) => ({
      type: 'function_call' as const,
      id: `fc_fake_${id}_${index + 1}`,
      call_id: call.id ?? `call_fake_${id}_${index + 1}`,
      name: call.name,
      arguments: JSON.stringify(call.args ?? {}),
      status: 'completed' as const,
    })),
  ];
  return {
    id: `resp_fake_${id}`,
    object: 'response',
    created_at: FAKE_CREATED_SECONDS,
    status: cutOff ? 'incomplete' : 'completed',
    incomplete_details: cutOff ? { reason: 'max_output_tokens' } : null,
    model: request.model,
    output,
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
  };
}
