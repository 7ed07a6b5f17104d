/**
 * OpenAI Chat Completions and Anthropic Messages bodies, reduced to the one view the rules are
 * matched against: a system prompt, and messages whose role is `user`, `assistant` or `tool`.
 *
 * The two APIs disagree on where tool results live (OpenAI: a `tool` message per result;
 * Anthropic: `tool_result` blocks inside a user message) and neither repeats the tool's name next
 * to its result, so the name is looked up from the assistant's earlier call with the same id.
 */
import { asArray, asRecord, asString } from './json-value.js';
import type { ApiKind, MessageRole } from './script-schema.js';

interface NormalisedToolCall {
  id: string;
  name: string;
  /** The arguments as JSON text. */
  arguments: string;
}

export interface NormalisedMessage {
  role: MessageRole;
  /** Text of the message (text parts joined with a newline); for tool messages, the result text. */
  content: string;
  /** Calls the assistant made in this message. */
  toolCalls: NormalisedToolCall[];
  /** For a tool message: the names of the tools whose results it holds ('' when the id is unknown). */
  toolNames: string[];
}

export interface NormalisedRequest {
  api: ApiKind;
  model: string;
  system: string;
  /** Conversation messages, system prompt excluded. */
  messages: NormalisedMessage[];
  /** Header values by lower-case name. */
  headers: Record<string, string>;
  /** The tool the request forces the model to call (Anthropic `tool_choice: {type: tool}`), if any. */
  forcedTool?: string;
  /** Anthropic: the system prompt has a block marked `cache_control` (a prompt-cache breakpoint). */
  cacheControl?: boolean;
}

export type NormaliseResult = { ok: true; request: NormalisedRequest } | { ok: false; message: string };

/** Reads an OpenAI `POST /v1/chat/completions` body. */
export function normaliseOpenAiRequest(body: unknown, headers: Record<string, string>): NormaliseResult {
  const record = asRecord(body);
  const rawMessages = asArray(record?.['messages']);
  if (!record || !rawMessages) return { ok: false, message: 'the request body must be a JSON object with a "messages" array' };

  const systemParts: string[] = [];
  const messages: NormalisedMessage[] = [];
  const toolNamesById = new Map<string, string>();
  for (const rawMessage of rawMessages) {
    const message = asRecord(rawMessage);
    const role = asString(message?.['role']);
    const content = openAiText(message?.['content']);
    if (role === 'system' || role === 'developer') {
      systemParts.push(content);
    } else if (role === 'assistant') {
      const toolCalls = (asArray(message?.['tool_calls']) ?? []).map((rawCall) => {
        const call = asRecord(rawCall);
        const function_ = asRecord(call?.['function']);
        const toolCall = {
          id: asString(call?.['id']) ?? '',
          name: asString(function_?.['name']) ?? '',
          arguments: asString(function_?.['arguments']) ?? '',
        };
        toolNamesById.set(toolCall.id, toolCall.name);
        return toolCall;
      });
      messages.push({ role: 'assistant', content, toolCalls, toolNames: [] });
    } else if (role === 'tool') {
      const name = toolNamesById.get(asString(message?.['tool_call_id']) ?? '') ?? '';
      messages.push({ role: 'tool', content, toolCalls: [], toolNames: [name] });
    } else if (role === 'function') {
      messages.push({ role: 'tool', content, toolCalls: [], toolNames: [asString(message?.['name']) ?? ''] });
    } else {
      messages.push({ role: 'user', content, toolCalls: [], toolNames: [] });
    }
  }
  return {
    ok: true,
    request: { api: 'openai', model: asString(record['model']) ?? '', system: systemParts.join('\n'), messages, headers },
  };
}

/** Reads an Anthropic `POST /v1/messages` body. */
export function normaliseAnthropicRequest(body: unknown, headers: Record<string, string>): NormaliseResult {
  const record = asRecord(body);
  const rawMessages = asArray(record?.['messages']);
  if (!record || !rawMessages) return { ok: false, message: 'the request body must be a JSON object with a "messages" array' };

  const messages: NormalisedMessage[] = [];
  const toolNamesById = new Map<string, string>();
  for (const rawMessage of rawMessages) {
    const message = asRecord(rawMessage);
    const rawContent = message?.['content'];
    const blocks = typeof rawContent === 'string' ? [{ type: 'text', text: rawContent }] : (asArray(rawContent) ?? []);
    const texts: string[] = [];
    const toolCalls: NormalisedToolCall[] = [];
    const toolNames: string[] = [];
    for (const rawBlock of blocks) {
      const block = asRecord(rawBlock);
      const type = asString(block?.['type']);
      if (type === 'text') {
        texts.push(asString(block?.['text']) ?? '');
      } else if (type === 'tool_use') {
        const toolCall = {
          id: asString(block?.['id']) ?? '',
          name: asString(block?.['name']) ?? '',
          arguments: JSON.stringify(block?.['input'] ?? {}),
        };
        toolNamesById.set(toolCall.id, toolCall.name);
        toolCalls.push(toolCall);
      } else if (type === 'tool_result') {
        toolNames.push(toolNamesById.get(asString(block?.['tool_use_id']) ?? '') ?? '');
        texts.push(anthropicText(block?.['content']));
      }
    }
    const role: MessageRole = asString(message?.['role']) === 'assistant' ? 'assistant' : toolNames.length > 0 ? 'tool' : 'user';
    messages.push({ role, content: texts.join('\n'), toolCalls, toolNames });
  }

  const toolChoice = asRecord(record['tool_choice']);
  const forcedTool = asString(toolChoice?.['type']) === 'tool' ? asString(toolChoice?.['name']) : undefined;
  return {
    ok: true,
    request: {
      api: 'anthropic',
      model: asString(record['model']) ?? '',
      system: anthropicText(record['system']),
      messages,
      headers,
      ...(forcedTool ? { forcedTool } : {}),
      ...((asArray(record['system']) ?? []).some((block) => asRecord(block)?.['cache_control'] !== undefined) ? { cacheControl: true } : {}),
    },
  };
}

/** OpenAI content: a string, null, or parts of which only `text` parts carry text. */
function openAiText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (asArray(content) ?? [])
    .map(asRecord)
    .filter((part) => part?.['type'] === 'text')
    .map((part) => asString(part?.['text']) ?? '')
    .join('\n');
}

/** Anthropic `system` or `tool_result` content: a string or text blocks. */
function anthropicText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (asArray(content) ?? [])
    .map(asRecord)
    .filter((block) => block?.['type'] === 'text')
    .map((block) => asString(block?.['text']) ?? '')
    .join('\n');
}
