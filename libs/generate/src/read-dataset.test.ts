import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isConfigError } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { readDataset } from './read-dataset.js';

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'parley-dataset-')), name);
  writeFileSync(path, text);
  return path;
}

function problems(path: string): string[] {
  try {
    readDataset(path);
  } catch (error) {
    if (isConfigError(error)) return error.issues.map((issue) => `${issue.line ?? '-'}:${issue.column ?? '-'} ${issue.message}`);
    throw error;
  }
  return [];
}

const DIALOGUE = { dialogue_id: '1_00001', services: ['Services_1'], turns: [{ speaker: 'USER', utterance: 'Hi' }] };
const CONVERSATION = { conversation_id: 'c1', turns: [{ role: 'user', content: 'Hi' }] };

describe('readDataset', () => {
  it('tells SGD (a list, or {dialogues}) from a JSON-lines conversation log by shape', () => {
    expect(readDataset(file('a.json', JSON.stringify([DIALOGUE]))).format).toBe('sgd');
    expect(readDataset(file('b.json', JSON.stringify({ source: 'SGD', dialogues: [DIALOGUE] }, null, 2))).format).toBe('sgd');
    const log = readDataset(file('c.jsonl', `${JSON.stringify(CONVERSATION)}\n\n${JSON.stringify({ ...CONVERSATION, conversation_id: 'c2' })}\n`));
    expect(log.format === 'production-log' && log.conversations.map((item) => item.line)).toEqual([1, 3]);
  });

  it('names line and column of broken JSON, in a document and in a log line', () => {
    expect(problems(file('d.json', '[\n  {"dialogue_id": "1", "turns": [\n    {"speaker": "USER" "utterance": "Hi"}\n  ]}\n]\n'))).toEqual([expect.stringMatching(/^3:24 invalid JSON: /)]);
    expect(problems(file('e.jsonl', `${JSON.stringify(CONVERSATION)}\n{"conversation_id": "c2", "turns": [}\n`))).toEqual([expect.stringMatching(/^2:37 invalid JSON: /)]);
  });

  it('names a wrong shape with what was expected, and an unreadable file', () => {
    expect(problems(file('f.json', '{"dialogues": [{"dialogue_id": "1", "turns": [{"speaker": "BOT", "utterance": "x"}]}]}'))).toEqual([expect.stringMatching(/expected SGD dialogues/)]);
    expect(problems(file('g.jsonl', `${JSON.stringify({ conversation_id: 'c', turns: [] })}\n`))).toEqual([expect.stringMatching(/^1:1 not a conversation log entry: turns/)]);
    expect(problems(join(tmpdir(), 'parley-no-such-dataset.json'))).toEqual(['-:- cannot read the dataset: file not found']);
  });
});

describe('readDataset: datasets of other formats', () => {
  it('names a Taskmaster file as such instead of a schema path', () => {
    const taskmaster = [{ conversation_id: 'dlg-00055f4e', instruction_id: 'restaurant-table-1', utterances: [{ index: 0, speaker: 'USER', text: 'Hi, book a table for two.' }] }];
    expect(problems(file('self-dialogs.json', JSON.stringify(taskmaster, null, 2)))).toEqual([
      expect.stringMatching(/^1:1 this is a Taskmaster file \(conversations with "utterances"\), which parley generate does not read; it reads SGD dialogues .* or a JSON-lines conversation log$/),
    ]);
  });

  it('names a MultiWOZ file as such', () => {
    const multiwoz = { 'SNG01856.json': { goal: {}, log: [{ text: 'am looking for a place to to stay', metadata: {} }] } };
    expect(problems(file('data.json', JSON.stringify(multiwoz)))).toEqual([expect.stringMatching(/^1:1 this is a MultiWOZ file/)]);
  });
});
