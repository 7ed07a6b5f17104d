import type { Transcript } from '@parley/core';

/** An assistant text message, located so reasons and reports can point at it. */
export interface LocatedMessage {
  content: string;
  /** 0-based position in `transcript.turns`. */
  message_index: number;
  /** 1-based rank among the conversation's assistant text messages (what reasons call "assistant message N"). */
  assistant_message: number;
  /** 1-based user turn the message belongs to. */
  turn: number;
}

/**
 * The assistant's text messages (tool-call-only messages with empty text left out), all of them
 * or only those of user turn `turn`. Numbering is over the whole conversation, so "assistant
 * message 3" means the same message whatever turn an expectation looks at.
 */
export function assistantMessagesOf(transcript: Transcript, turn?: number): LocatedMessage[] {
  const located: LocatedMessage[] = [];
  transcript.turns.forEach((message, index) => {
    if (message.role !== 'assistant' || message.content.trim() === '') return;
    located.push({ content: message.content, message_index: index, assistant_message: located.length + 1, turn: message.turn });
  });
  return turn === undefined ? located : located.filter((message) => message.turn === turn);
}

/** `assistant message 3 (turn 2)`. */
export function describeMessage(message: LocatedMessage): string {
  return `assistant message ${message.assistant_message} (turn ${message.turn})`;
}

/** `the assistant messages` or `the assistant messages of turn 2`. */
export function describeScope(turn: number | undefined): string {
  return turn === undefined ? 'the assistant messages' : `the assistant messages of turn ${turn}`;
}

/** Why an expectation about turn N cannot hold when that turn has no assistant message. */
export function emptyTurnReason(transcript: Transcript, turn: number): string {
  const userTurns = transcript.turns.filter((message) => message.role === 'user').length;
  return `turn ${turn} has no assistant message (the conversation has ${userTurns} user turn${userTurns === 1 ? '' : 's'})`;
}

/** The location of a message, for details. */
export function locationOf(message: LocatedMessage): Omit<LocatedMessage, 'content'> {
  return { message_index: message.message_index, assistant_message: message.assistant_message, turn: message.turn };
}
