import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock, type CallContext, type ChatMessage, type CompletionRequest, type CompletionResponse } from '@parley/core';
import type { RecordingEntry } from '@parley/config';
import { conversationLines, diffConversations, recordedConversation } from './recorded-conversation.js';
import { createRecorder, writeRecording } from './recording.js';
import { readRecording } from './read-recording.js';

function answer(content: string, toolCalls: CompletionResponse['tool_calls'] = []): CompletionResponse {
  return { content, tool_calls: toolCalls, usage: { input_tokens: 10, output_tokens: 5 }, finish_reason: 'stop', model: 'gpt-4.1-mini', latency_ms: 12 };
}

function request(messages: ChatMessage[], provider: CompletionRequest['provider'] = 'openai'): CompletionRequest {
  return { provider, model: 'gpt-4.1-mini', system: 'You are Ratiba.', messages };
}

const agent = (turn: number): CallContext => ({ role: 'agent', scenario_id: 'spa_happy', turn });

/** A two-turn booking with a tool round trip, a simulator call and a judge call, as a run records it. */
function bookingRecording(finalReply: string): RecordingEntry[] {
  const recorder = createRecorder(manualClock());
  const opening: ChatMessage = { role: 'user', content: 'Habari! Nataka massage Jumamosi.' };
  const toolCall: ChatMessage = { role: 'assistant', content: '', tool_calls: [{ id: 'call_abc', name: 'check_availability', args: { day: 'saturday' } }] };
  const toolResult: ChatMessage = { role: 'tool', tool_call_id: 'call_abc', name: 'check_availability', content: '{"slots":["10:00"]}' };
  recorder.add(request([opening]), answer('', [{ id: 'call_abc', name: 'check_availability', args: { day: 'saturday' } }]), agent(1));
  recorder.add(request([opening, toolCall, toolResult]), answer('Tuna nafasi saa 10:00.\nUngependa?'), agent(1));
  recorder.add(request([{ role: 'user', content: 'play Amina' }]), answer('Saa nne tafadhali.'), { role: 'simulator', scenario_id: 'spa_happy', turn: 2 });
  const offer: ChatMessage = { role: 'assistant', content: 'Tuna nafasi saa 10:00.\nUngependa?' };
  recorder.add(request([opening, toolCall, toolResult, offer, { role: 'user', content: 'Saa nne tafadhali.' }]), answer(finalReply), agent(2));
  recorder.add(request([{ role: 'user', content: 'judge this' }]), answer('{"score": 90}'), { role: 'judge', scenario_id: 'spa_happy', turn: 0 });
  return recorder.entries;
}

describe('recordedConversation', () => {
  it("is the agent's last request with its answer, read back from a recording file", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parley-conversation-')), 'spa_happy.jsonl');
    writeRecording(file, bookingRecording('Sawa, nimeweka saa 10:00.'));
    const conversation = recordedConversation(readRecording(file));
    expect(conversation.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(conversation.at(-1)).toEqual({ role: 'assistant', content: 'Sawa, nimeweka saa 10:00.' });
    // Simulator and judge prompts are not part of the conversation.
    expect(JSON.stringify(conversation)).not.toContain('judge this');
    expect(JSON.stringify(conversation)).not.toContain('play Amina');
  });

  it('is empty for a recording without agent calls', () => {
    expect(recordedConversation([])).toEqual([]);
    expect(recordedConversation(bookingRecording('x').filter((entry) => entry.role !== 'agent'))).toEqual([]);
  });

  it('keeps the tool calls of a last answer that only calls tools', () => {
    const recorder = createRecorder(manualClock());
    recorder.add(request([{ role: 'user', content: 'book it' }]), answer('', [{ name: 'create_booking', args: { slot: '10:00' } }]), agent(1));
    expect(recordedConversation(recorder.entries)).toEqual([
      { role: 'user', content: 'book it' },
      { role: 'assistant', content: '', tool_calls: [{ name: 'create_booking', args: { slot: '10:00' } }] },
    ]);
  });
});

describe('conversationLines', () => {
  it('gives one line per message, indents continuation lines, shows tool calls and results without call ids', () => {
    expect(conversationLines(recordedConversation(bookingRecording('Sawa.')))).toEqual([
      'user: Habari! Nataka massage Jumamosi.',
      'assistant → check_availability({"day":"saturday"})',
      'tool check_availability: {"slots":["10:00"]}',
      'assistant: Tuna nafasi saa 10:00.',
      '  Ungependa?',
      'user: Saa nne tafadhali.',
      'assistant: Sawa.',
    ]);
  });
});

describe('diffConversations', () => {
  it('marks what only the recording has as removed and what only the new conversation has as added', async () => {
    const before = recordedConversation(bookingRecording('Sawa, nimeweka saa 10:00 Jumamosi.'));
    const after = recordedConversation(bookingRecording('Samahani, saa 10:00 imechukuliwa.'));
    const diff = await diffConversations(before, after);
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
    expect(diff.lines.filter((line) => line.kind !== 'same').map(({ kind, text }) => ({ kind, text }))).toEqual([
      { kind: 'removed', text: 'assistant: Sawa, nimeweka saa 10:00 Jumamosi.' },
      { kind: 'added', text: 'assistant: Samahani, saa 10:00 imechukuliwa.' },
    ]);
    expect(diff.lines.filter((line) => line.kind === 'same')).toHaveLength(6);
  });

  it('pairs a changed line with its replacement and marks the words that differ, far past the 80th column too', async () => {
    const long = 'Asante kwa kusubiri, nimeangalia ratiba yote ya wiki hii na ninaweza kuthibitisha kwamba';
    const diff = await diffConversations(recordedConversation(bookingRecording(`${long} Jumamosi ipo.`)), recordedConversation(bookingRecording(`${long} Jumapili ipo.`)));
    const [removed, added] = diff.lines.filter((line) => line.kind !== 'same');
    expect(removed?.parts?.filter((part) => part.changed).map((part) => part.text)).toEqual(['Jumamosi']);
    expect(added?.parts?.filter((part) => part.changed).map((part) => part.text)).toEqual(['Jumapili']);
    // The parts put together are the line.
    expect(added?.parts?.map((part) => part.text).join('')).toBe(added?.text);
    expect(diff.lines.filter((line) => line.kind === 'same').every((line) => line.parts === undefined)).toBe(true);
  });

  it('finds no change between two recordings of the same conversation', async () => {
    const conversation = recordedConversation(bookingRecording('Sawa.'));
    const diff = await diffConversations(conversation, structuredClone(conversation));
    expect({ added: diff.added, removed: diff.removed }).toEqual({ added: 0, removed: 0 });
    expect(diff.lines.every((line) => line.kind === 'same')).toBe(true);
  });

  it('shows a whole new conversation as added when there was no recording', async () => {
    const diff = await diffConversations([], recordedConversation(bookingRecording('Sawa.')));
    expect(diff.removed).toBe(0);
    expect(diff.added).toBe(7);
  });
});
