import type { ChatMessage } from '@parley/core';
import type { RecordingEntry } from '@parley/config';

/**
 * The conversation a recording holds, as the agent saw it: the messages of the agent's last
 * request followed by its last answer. Every agent request repeats the conversation so far (prompt
 * agents and service agents alike), so the last one with its answer is the whole conversation;
 * simulator and judge calls are left out. Under `--repeat` it is the last attempt's conversation.
 * A recording without agent calls gives an empty conversation.
 *
 * @example
 * recordedConversation(readRecording('recordings/spa_happy.jsonl'))
 * // → [{ role: 'user', content: 'Habari!' }, { role: 'assistant', content: 'Karibu!' }]
 */
export function recordedConversation(entries: readonly RecordingEntry[]): ChatMessage[] {
  const last = entries.findLast((entry) => entry.role === 'agent');
  if (last === undefined) return [];
  const messages = Array.isArray(last.request.messages) ? (last.request.messages as ChatMessage[]) : [];
  const answer: ChatMessage = {
    role: 'assistant',
    content: last.response.content,
    ...(last.response.tool_calls.length > 0 ? { tool_calls: last.response.tool_calls } : {}),
  };
  return [...messages, answer];
}

/**
 * A conversation as lines of text, one message per line (continuation lines of a long message
 * indented): what a person reads in a diff. Tool calls are shown with their arguments, tool
 * results with the tool's name; provider-assigned call ids are left out (they differ between
 * recordings of the same conversation).
 */
export function conversationLines(messages: readonly ChatMessage[]): string[] {
  const lines: string[] = [];
  const push = (label: string, text: string): void => {
    const [first = '', ...rest] = text.split('\n');
    lines.push(`${label}: ${first}`.trimEnd());
    for (const line of rest) lines.push(`  ${line}`.trimEnd());
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      push(`tool ${message.name}`, message.content);
      continue;
    }
    if (message.content !== '' || message.role === 'user' || !('tool_calls' in message) || !message.tool_calls?.length) {
      push(message.role, message.content);
    }
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) lines.push(`assistant → ${call.name}(${JSON.stringify(call.args)})`);
    }
  }
  return lines;
}

/** One line of a conversation diff: kept, only in the recording (`removed`), or only in the new conversation (`added`). */
export interface ConversationDiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
  /**
   * A removed line paired with the added line that replaced it (and that one with it): `text` in
   * runs, `changed` where the two lines differ (by words, spaces kept). Absent on lines with no
   * counterpart.
   */
  parts?: ConversationDiffPart[];
}

/** A run of a changed line's text: the same in both lines, or only in this one. */
interface ConversationDiffPart {
  text: string;
  changed: boolean;
}

export interface ConversationDiff {
  lines: ConversationDiffLine[];
  added: number;
  removed: number;
}

/**
 * A line diff of two conversations (see `conversationLines`): `before` is the recording, `after`
 * the re-recorded conversation. Identical conversations give no added or removed line.
 */
export async function diffConversations(before: readonly ChatMessage[], after: readonly ChatMessage[]): Promise<ConversationDiff> {
  // Loaded when a diff is asked for (triage), never by a headless run.
  const { diffArrays, diffWordsWithSpace } = await import('diff');
  const changes = diffArrays(conversationLines(before), conversationLines(after));
  const lines: ConversationDiffLine[] = [];
  let added = 0;
  let removed = 0;
  for (const [index, change] of changes.entries()) {
    const kind = change.added ? 'added' : change.removed ? 'removed' : 'same';
    // A removed block right before an added one: the i-th lines of both are a changed pair.
    const counterpart = kind === 'removed' ? changes[index + 1] : kind === 'added' ? changes[index - 1] : undefined;
    const pairedWith = kind === 'removed' && counterpart?.added ? counterpart.value : kind === 'added' && counterpart?.removed ? counterpart.value : undefined;
    for (const [position, text] of change.value.entries()) {
      const other = pairedWith?.[position];
      if (other === undefined) {
        lines.push({ kind, text });
        continue;
      }
      const words = kind === 'removed' ? diffWordsWithSpace(text, other) : diffWordsWithSpace(other, text);
      const parts = words
        .filter((part) => (kind === 'removed' ? !part.added : !part.removed))
        .map((part): ConversationDiffPart => ({ text: part.value, changed: part.added || part.removed }));
      lines.push({ kind, text, parts });
    }
    if (kind === 'added') added += change.value.length;
    if (kind === 'removed') removed += change.value.length;
  }
  return { lines, added, removed };
}
