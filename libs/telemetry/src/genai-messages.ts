import type { ToolCall, TranscriptTurn } from '@parley/core';

/**
 * Message parts as the OpenTelemetry GenAI conventions write `gen_ai.input.messages` and
 * `gen_ai.output.messages` (their published JSON schemas: a message is a role and a list of typed
 * parts; an output message also says why the generation finished). Only the parts Parley has.
 */
export type GenAiPart =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string | null; name: string; arguments: Record<string, unknown> }
  | { type: 'tool_call_response'; id: string | null; response: string };

export interface GenAiInputMessage {
  role: 'user' | 'assistant' | 'tool';
  parts: GenAiPart[];
}

/** `finish_reason` is required on output messages: `tool_call` when the model asked for tools, else `stop`. */
export interface GenAiOutputMessage extends GenAiInputMessage {
  role: 'assistant';
  finish_reason: 'stop' | 'tool_call';
}

/** A transcript message as an input message (tool answers matched to the call they answer). */
export function inputMessage(turn: TranscriptTurn, toolCallId: string | null = null): GenAiInputMessage {
  if (turn.role === 'tool') return { role: 'tool', parts: [{ type: 'tool_call_response', id: toolCallId, response: turn.content }] };
  return { role: turn.role, parts: messageParts(turn) };
}

/** An assistant message as the model's output: text, then one `tool_call` part per tool call. */
export function outputMessage(turn: TranscriptTurn): GenAiOutputMessage {
  return { role: 'assistant', parts: messageParts(turn), finish_reason: (turn.tool_calls ?? []).length > 0 ? 'tool_call' : 'stop' };
}

/** Text the model wrote (simulator) as an output message. */
export function textOutput(content: string): GenAiOutputMessage {
  return { role: 'assistant', parts: [{ type: 'text', content }], finish_reason: 'stop' };
}

function messageParts(turn: TranscriptTurn): GenAiPart[] {
  const parts: GenAiPart[] = [];
  if (turn.content !== '') parts.push({ type: 'text', content: turn.content });
  for (const call of turn.tool_calls ?? []) parts.push(toolCallPart(call));
  return parts;
}

function toolCallPart(call: ToolCall): GenAiPart {
  return { type: 'tool_call', id: call.id ?? null, name: call.name, arguments: call.args };
}

/** The plain text of messages (Langfuse's trace input and output, which show text). */
export function messagesText(messages: readonly GenAiInputMessage[]): string {
  return messages
    .flatMap((message) =>
      message.parts.map((part) => (part.type === 'text' ? part.content : part.type === 'tool_call' ? `${part.name}(${JSON.stringify(part.arguments)})` : part.response)),
    )
    .join('\n');
}
