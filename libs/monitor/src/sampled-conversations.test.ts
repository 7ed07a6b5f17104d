import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashBucket } from '@parley/canary';
import { isConfigError, type ConfigError } from '@parley/core';
import { afterAll, describe, expect, it } from 'vitest';
import { MONITOR_SALT, readSampledConversations } from './sampled-conversations.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-sampled-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function log(name: string, lines: readonly string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function conversation(id: string, ended = '2026-11-27T10:00:00.000Z'): string {
  return JSON.stringify({ conversation_id: id, turns: [{ role: 'user', content: 'Habari' }, { role: 'assistant', content: 'Karibu!', timestamp: ended }] });
}

const IDS = Array.from({ length: 200 }, (_, index) => `wa:2547${String(index).padStart(6, '0')}`);

describe('readSampledConversations', () => {
  it('keeps exactly the conversations whose hash bucket is below percent × 100, with their lines', async () => {
    const file = log('sample.jsonl', IDS.map((id) => conversation(id)));
    const result = await readSampledConversations(file, { percent: 20, salt: MONITOR_SALT });
    const expected = IDS.flatMap((id, index) => (hashBucket(MONITOR_SALT, id) < 2000 ? [[index + 1, id]] : []));
    expect(result.total).toBe(200);
    expect(result.sampled.map(({ line, value }) => [line, value.conversation_id])).toEqual(expected);
    // About a fifth, and another salt draws another sample.
    expect(expected.length).toBeGreaterThan(20);
    expect(expected.length).toBeLessThan(60);
    const other = await readSampledConversations(file, { percent: 20, salt: 'canary' });
    expect(other.sampled.map(({ value }) => value.conversation_id)).not.toEqual(expected.map(([, id]) => id));
  });

  it('leaves out sampled conversations that ended before the window, and those without timestamps (docs/file-formats.md says so)', async () => {
    const undated = JSON.stringify({ conversation_id: 'undated', turns: [{ role: 'user', content: 'Habari' }] });
    const file = log('window.jsonl', ['\uFEFF' + conversation('old', '2026-11-20T10:00:00.000Z'), '', conversation('new', '2026-11-27T10:00:00.000Z'), undated]);
    const result = await readSampledConversations(file, { percent: 100, salt: MONITOR_SALT, since: new Date('2026-11-27T00:00:00.000Z') });
    expect(result.sampled.map(({ line, value }) => [line, value.conversation_id])).toEqual([
      [3, 'new'],
    ]);
    expect(result).toMatchObject({ total: 3, beforeWindow: 1, withoutTimestamps: 1 });
  });

  it('judges a conversation logged five times once, as its last line', async () => {
    const lines = [1, 2, 3, 4, 5].map((turns) => JSON.stringify({ conversation_id: 'repeated', turns: Array.from({ length: turns }, () => ({ role: 'user', content: 'Habari', timestamp: '2026-11-27T10:00:00.000Z' })) }));
    const file = log('repeated.jsonl', [...lines, conversation('other')]);
    const result = await readSampledConversations(file, { percent: 100, salt: MONITOR_SALT });
    expect(result.sampled.map(({ line, value }) => [line, value.conversation_id, value.turns.length])).toEqual([
      [5, 'repeated', 5],
      [6, 'other', 2],
    ]);
    expect(result).toMatchObject({ total: 6, duplicates: 4 });
  });

  it('names every bad line at once, with its line number', async () => {
    const file = log('broken.jsonl', [conversation('fine'), 'not json', JSON.stringify({ turns: [] }), JSON.stringify({ conversation_id: 'no-turns' })]);
    const error = (await readSampledConversations(file, { percent: 100, salt: MONITOR_SALT }).catch((caught: unknown) => caught)) as ConfigError;
    expect(isConfigError(error)).toBe(true);
    expect(error.issues.map((issue) => [issue.line, issue.message.split(':')[0]])).toEqual([
      [2, 'not valid JSON'],
      [3, 'not a conversation log entry'],
      [4, 'not a conversation log entry'],
    ]);
    expect(error.issues[1]!.message).toBe('not a conversation log entry: conversation_id: a non-empty string is required');
    expect(error.issues.every((issue) => issue.file === file)).toBe(true);
  });

  it('does not validate lines outside the sample (a 0 % sample reads any conversation_id line)', async () => {
    const file = log('unsampled.jsonl', [JSON.stringify({ conversation_id: 'x', turns: 'not a list' })]);
    await expect(readSampledConversations(file, { percent: 0, salt: MONITOR_SALT })).resolves.toEqual({ sampled: [], total: 1, beforeWindow: 0, withoutTimestamps: 0, duplicates: 0 });
  });

  it('says which file it cannot read', async () => {
    const missing = join(dir, 'missing.jsonl');
    const error = (await readSampledConversations(missing, { percent: 5, salt: MONITOR_SALT }).catch((caught: unknown) => caught)) as ConfigError;
    expect(isConfigError(error)).toBe(true);
    expect(error.issues[0]).toMatchObject({ file: missing, message: expect.stringContaining('cannot read the conversation log: ENOENT') });
  });
});
