/**
 * An OpenAI Responses API body (`POST /v1/responses`) in the view the rules match against. The
 * conversation is the `input` list: messages (`role` + text or text parts), `function_call` items
 * (the assistant's tool calls, joined to the assistant message before them) and
 * `function_call_output` items (tool results, named from the call with the same `call_id`);
 * `instructions` is the system prompt.
 */
import { asArray, asRecord, asString } from './json-value.js';
import type { NormaliseResult, NormalisedMessage } from './normalise-request.js';

export function normaliseResponsesRequest(body: unknown, headers: Record<string, string>): NormaliseResult {
  const record = asRecord(body);
  const rawInput = record?.['input'];
  if (!record || (typeof rawInput !== 'string' && !asArray(rawInput))) {
    return { ok: false, message: 'the request body must be a JSON object with an "input" string or list' };
  }
  const items = typeof rawInput === 'string' ? [{ role: 'user', content: rawInput }] : (asArray(rawInput) ?? []);
  const systemParts = [asString(record['instructions']) ?? ''].filter((text) => text !== '');
  const messages: NormalisedMessage[] = [];
  const toolNamesById = new Map<string, string>();
  for (const rawItem of items) {
    const item = asRecord(rawItem);
    const type = asString(item?.['type']) ?? 'message';
    if (type === 'function_call') {
      const call = { id: asString(item?.['call_id']) ?? '', name: asString(item?.['name']) ?? '', arguments: asString(item?.['arguments']) ?? '' };
      toolNamesById.set(call.id, call.name);
      const previous = messages.at(-1);
      if (previous?.role === 'assistant') previous.toolCalls.push(call);
      else messages.push({ role: 'assistant', content: '', toolCalls: [call], toolNames: [] });
    } else if (type === 'function_call_output') {
      const name = toolNamesById.get(asString(item?.['call_id']) ?? '') ?? '';
      messages.push({ role: 'tool', content: asString(item?.['output']) ?? '', toolCalls: [], toolNames: [name] });
    } else if (type === 'message') {
      const role = asString(item?.['role']);
      const content = messageText(item?.['content']);
      if (role === 'system' || role === 'developer') systemParts.push(content);
      else messages.push({ role: role === 'assistant' ? 'assistant' : 'user', content, toolCalls: [], toolNames: [] });
    }
  }
  return {
    ok: true,
    request: { api: 'openai-responses', model: asString(record['model']) ?? '', system: systemParts.join('\n'), messages, headers },
  };
}

/** A message's content: a string, or parts of which `input_text`/`output_text` carry text. */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (asArray(content) ?? [])
    .map(asRecord)
    .filter((part) => part?.['type'] === 'input_text' || part?.['type'] === 'output_text')
    .map((part) => asString(part?.['text']) ?? '')
    .join('\n');
}
