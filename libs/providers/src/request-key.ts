import { hashCanonical, type ChatMessage, type CompletionRequest } from '@parley/core';

/**
 * The recording key of a request (SPEC §3.3): sha256 of the canonical request — provider, model,
 * messages, tools and sampling parameters. Tool-call ids are assigned by the provider and differ
 * between recordings of the same conversation, so they are replaced by their position before
 * hashing: a re-recording of an unchanged conversation gives the same keys.
 */
export function requestKey(request: CompletionRequest): string {
  // Layers (cassette, replay, recorder) ask for the key of the same request object: hash it once.
  // Requests are never changed after they are made (each call builds a new one).
  let key = keysByRequest.get(request);
  if (key === undefined) {
    key = hashCanonical(keyMaterial(request), canonicalMessages);
    keysByRequest.set(request, key);
  }
  return key;
}

const keysByRequest = new WeakMap<CompletionRequest, string>();
/** Canonical text of the messages (and tools) requests share: every request of a conversation repeats the earlier messages. */
const canonicalMessages = new WeakMap<object, string>();

/** The part of a request that identifies it, in the form that is hashed (also used for diffs). */
export function keyMaterial(request: CompletionRequest): Record<string, unknown> {
  return {
    provider: request.provider,
    model: request.model,
    system: request.system,
    messages: withPositionalToolIds(request.messages),
    tools: request.tools,
    temperature: request.temperature,
    max_tokens: request.max_tokens,
    seed: request.seed,
    response_schema: request.response_schema,
  };
}

function withPositionalToolIds(messages: ChatMessage[]): ChatMessage[] {
  const positions = new Map<string, string>();
  const positional = (id: string | undefined): string => {
    const key = id ?? `missing-${positions.size}`;
    let value = positions.get(key);
    if (value === undefined) {
      value = `call_${positions.size + 1}`;
      positions.set(key, value);
    }
    return value;
  };
  return messages.map((message) => {
    if (message.role === 'assistant' && message.tool_calls) {
      const ids = message.tool_calls.map((call) => positional(call.id));
      return reuseMapped(message, ids, () => ({ ...message, tool_calls: message.tool_calls!.map((call, index) => ({ ...call, id: ids[index]! })) }));
    }
    if (message.role === 'tool') {
      const id = positional(message.tool_call_id);
      return reuseMapped(message, [id], () => ({ ...message, tool_call_id: id }));
    }
    return message;
  });
}

/**
 * The positional copy of a message made for an earlier request of the same conversation, when it
 * got the same positional ids (it does: ids are numbered in order of appearance, and a later
 * request repeats the earlier messages). Reusing the copy lets the canonical-JSON cache answer
 * for it instead of serialising it again on every call.
 */
function reuseMapped(message: ChatMessage, ids: string[], make: () => ChatMessage): ChatMessage {
  const signature = ids.join(',');
  const known = mappedMessages.get(message);
  if (known !== undefined && known.signature === signature) return known.mapped;
  const mapped = make();
  mappedMessages.set(message, { signature, mapped });
  return mapped;
}

const mappedMessages = new WeakMap<ChatMessage, { signature: string; mapped: ChatMessage }>();
