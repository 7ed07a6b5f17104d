import { canonicalJson, hashCanonical, sha256Hex, type ChatMessage, type CompletionRequest } from '@parley/core';

/**
 * The recording key of a request (docs/file-formats.md, "Recordings"): sha256 of the canonical
 * request — provider, model, messages, tools and sampling parameters. Tool-call ids are assigned by
 * the provider and differ between recordings of the same conversation, so they are replaced by
 * their position before hashing: a re-recording of an unchanged conversation gives the same keys.
 */
export function requestKey(request: CompletionRequest): string {
  // Layers (cassette, replay, recorder) ask for the key of the same request object: hash it once.
  // Requests are never changed after they are made (each call builds a new one).
  let key = keysByRequest.get(request);
  if (key === undefined) {
    key = sha256Hex(canonicalKeyText(keyMaterial(request)));
    keysByRequest.set(request, key);
  }
  return key;
}

const keysByRequest = new WeakMap<CompletionRequest, string>();

/** The recording key of a request's {@link keyMaterial} (as a recording stores it under `request`). */
export function materialKey(material: Record<string, unknown>): string {
  return sha256Hex(canonicalKeyText(material));
}
/** Canonical text of the messages (and tools) requests share: every request of a conversation repeats the earlier messages. */
const canonicalMessages: WeakMap<object, string> = new WeakMap<object, string>();

/**
 * `canonicalJson(material)`, the same text, built without caching the one-off outer object and
 * message list (a cache entry per call that is never read again): only messages and tools, which
 * later requests repeat, are remembered. A value canonical JSON refuses gets its own error.
 */
function canonicalKeyText(material: Record<string, unknown>): string {
  try {
    let text = '{';
    for (const [name, quoted] of MATERIAL_KEYS) {
      const member = material[name];
      if (member === undefined) continue;
      text += `${text === '{' ? '' : ','}${quoted}:${Array.isArray(member) ? canonicalList(member, name === 'tools') : canonicalJson(member, canonicalMessages)}`;
    }
    return `${text}}`;
  } catch {
    hashCanonical(material, canonicalMessages); // throws canonicalJson's error, which names the path of the bad value
    throw new TypeError('requestKey: the request cannot be written as canonical JSON');
  }
}

/** The keys of {@link keyMaterial} (it sets every key, maybe to undefined) in canonical order, each with its JSON text: made once, not on every call. */
const MATERIAL_KEYS: ReadonlyArray<readonly [string, string]> = Object.keys(keyMaterial({ provider: 'openai', model: '', messages: [] }))
  .sort()
  .map((name) => [name, JSON.stringify(name)] as const);

/** A list's canonical JSON; a list shared by many requests (the agent's tools) is remembered. */
function canonicalList(items: readonly unknown[], shared: boolean): string {
  const known = shared ? canonicalLists.get(items) : undefined;
  if (known !== undefined) return known;
  let text = '[';
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    text += `${index > 0 ? ',' : ''}${item === undefined ? 'null' : canonicalJson(item, canonicalMessages)}`;
  }
  text += ']';
  if (shared) canonicalLists.set(items, text);
  return text;
}

const canonicalLists = new WeakMap<readonly unknown[], string>();

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
