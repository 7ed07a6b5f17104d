import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '@parley/core';
import { mutate, mutationsArbitrary, type Mutation } from './test-support/file-mutations.js';
import { parleyAsync } from './test-support/parley-process.js';
import { MONITORED_SUITE } from './test-support/monitored-suite.js';
import { writeSuite } from './test-support/zuri-suite.js';

/**
 * Production logs are written by someone else's agent, cut by log rotation and copied between
 * machines: whatever happens to a conversation log or a feedback file, `parley monitor`,
 * `promote` and `canary compare` read it or stop with a ConfigError whose every issue names the
 * file and the line (the CLI prints them and exits 2). A crash, a parser's own exception or a hang
 * is a bug. Seeded, so a failure reproduces; fast-check shrinks it to the smallest damage.
 */

// The CLI loads these lazily; so does this test.
const production = await import('@parley/production');
const { readSampledConversations } = await import('@parley/monitor');

const ENDED = '2026-11-27T10:00:00.000Z';

/** A log of 12 conversations of two prompt versions (one with a tool call), and feedback on some of them. */
function fixture(): { dir: string; logs: string; feedback: string } {
  const dir = writeSuite(MONITORED_SUITE);
  const lines = Array.from({ length: 12 }, (_, index) =>
    JSON.stringify({
      conversation_id: `wa:2547221${String(index).padStart(5, '0')}`,
      tenant: 'zuri_spa',
      vertical: 'salon',
      language: index % 3 === 0 ? 'sw' : 'en',
      prompt_version: index % 2 === 0 ? 'v1' : 'v2',
      customer: { name: 'Grace Achieng' },
      turns: [
        { role: 'user', content: "Hi, it's Grace Achieng, a blow-dry on Thursday please.", timestamp: ENDED },
        { role: 'assistant', content: '', tool_calls: [{ id: `call_${index}`, name: 'check_slot', args: { day: 'thursday' } }], timestamp: ENDED },
        { role: 'tool', tool_call_id: `call_${index}`, content: '{"free": ["15:00"]}' },
        { role: 'assistant', content: 'Thursday 15:00 is free: shall I book it?', timestamp: ENDED, usage: { input_tokens: 120, output_tokens: 12 } },
      ],
    }),
  );
  const feedback = [0, 3, 5, 8].map((index) => JSON.stringify({ conversation_id: `wa:2547221${String(index).padStart(5, '0')}`, user_feedback: index % 2 === 0 ? '👎' : '👍', comment: 'slow' }));
  writeFileSync(join(dir, 'conversations.jsonl'), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'feedback.jsonl'), `${feedback.join('\n')}\n`);
  return { dir, logs: join(dir, 'conversations.jsonl'), feedback: join(dir, 'feedback.jsonl') };
}

type Outcome = 'read' | 'clean error';

/** Reads with the file damaged, then puts it back. A crash is thrown, with the damage that caused it. */
async function readDamaged(path: string, mutations: Mutation[], read: () => unknown): Promise<Outcome> {
  const original = readFileSync(path);
  writeFileSync(path, mutations.reduce(mutate, original));
  try {
    await read();
    return 'read';
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const issue of error.issues.filter((candidate) => candidate.severity !== 'warning')) {
      expect(issue.file, error.message).toBe(path);
      expect(issue.line, `no line in: ${error.message}`).toBeGreaterThanOrEqual(1);
    }
    return 'clean error';
  } finally {
    writeFileSync(path, original);
  }
}

const RUNS_PER_READER = 100;
const tally = { inputs: 0, 'clean error': 0, read: 0 };

describe('damaged production logs never crash (seeded property-based fuzzing)', () => {
  const { dir, logs, feedback } = fixture();
  const since = new Date('2026-11-20T00:00:00Z');
  const readers: Record<string, { file: string; read: () => unknown }> = {
    'conversation log (promote, canary compare, calibrate import)': { file: logs, read: () => production.readProductionLog(logs, { since }) },
    "conversation log, sampled (monitor's reader)": { file: logs, read: () => readSampledConversations(logs, { percent: 50, salt: 'parley-monitor', since }) },
    feedback: { file: feedback, read: () => production.readFeedbackFile(feedback) },
  };

  afterAll(() => {
    // The figures docs/reliability.md quotes.
    console.log(`production-log fuzz: ${tally.inputs} damaged files, ${tally['clean error']} clean errors with file:line, ${tally.read} still readable, 0 crashes`);
  });

  for (const [name, reader] of Object.entries(readers)) {
    it(`a damaged ${name} is read or is a ConfigError with file:line`, async () => {
      await fc.assert(
        fc.asyncProperty(mutationsArbitrary, async (mutations) => {
          const outcome = await readDamaged(reader.file, mutations, reader.read);
          tally.inputs++;
          tally[outcome]++;
        }),
        { seed: 20261127, numRuns: RUNS_PER_READER },
      );
    }, 120_000);
  }

  it('monitor, promote and canary compare exit 2 with file:line, no stack trace, no hang', async () => {
    const commands = [
      ['monitor', '--logs', 'conversations.jsonl', '--dry-run', '--sample', '100'],
      ['promote', '--logs', 'conversations.jsonl', '--feedback', 'feedback.jsonl'],
      ['canary', 'compare', '--logs', 'conversations.jsonl', '--feedback', 'feedback.jsonl', '--stable', 'v1', '--canary', 'v2'],
    ];
    const damages: Array<{ file: string; damage: (bytes: Buffer) => Buffer }> = [
      { file: 'conversations.jsonl', damage: (bytes) => Buffer.concat([bytes, Buffer.from('{"conversation_id": "caf'), Buffer.from([0xe9]), Buffer.from('", "turns": []}\n')]) },
      { file: 'conversations.jsonl', damage: (bytes) => Buffer.concat([bytes, Buffer.from(`${'['.repeat(100_000)}\n`)]) },
      { file: 'conversations.jsonl', damage: (bytes) => Buffer.concat([bytes, Buffer.from('\u001b[2J{"conversation_id": 7}\n')]) },
      { file: 'conversations.jsonl', damage: (bytes) => bytes.subarray(0, Math.floor(bytes.length / 2)) },
      { file: 'feedback.jsonl', damage: (bytes) => Buffer.concat([bytes, Buffer.from('{"conversation_id": "x", "user_feedback": {"nested": true}}\n')]) },
    ];
    for (const { file, damage } of damages) {
      const path = join(dir, file);
      const original = readFileSync(path);
      writeFileSync(path, damage(original));
      try {
        for (const command of commands) {
          if (file === 'feedback.jsonl' && command[0] === 'monitor') continue;
          const result = await parleyAsync(command, { cwd: dir });
          const where = `parley ${command.join(' ')} with ${file} damaged:\n${result.stderr}`;
          expect(result.status, where).toBe(2);
          expect(result.stderr, where).toMatch(new RegExp(`${file.replace('.', '\\.')}:\\d+:\\d+: `));
          expect(result.stderr, where).not.toMatch(/^\s+at /m);
          expect(result.stderr, where).not.toContain('internal error');
          expect(result.stderr, where).not.toContain('\u001b');
        }
      } finally {
        writeFileSync(path, original);
      }
    }
  }, 300_000);

  it('generate --from-dataset exits 2 with file:line on the same damaged logs: nothing written, no stack trace', async () => {
    const path = join(dir, 'conversations.jsonl');
    const original = readFileSync(path);
    const damages: Array<(bytes: Buffer) => Buffer> = [
      (bytes) => Buffer.concat([bytes, Buffer.from('{"conversation_id": "caf'), Buffer.from([0xe9]), Buffer.from('", "turns": []}\n')]),
      (bytes) => Buffer.concat([bytes, Buffer.from(`${'['.repeat(100_000)}\n`)]),
      (bytes) => Buffer.concat([bytes, Buffer.from('\u001b[2J{"conversation_id": 7}\n')]),
      (bytes) => bytes.subarray(0, Math.floor(bytes.length / 2)),
    ];
    try {
      for (const damage of damages) {
        writeFileSync(path, damage(original));
        const result = await parleyAsync(['generate', '--from-dataset', 'conversations.jsonl', '--agent', 'booking', '--out', 'drafted'], { cwd: dir });
        const where = `parley generate --from-dataset with a damaged log:\n${result.stderr}`;
        expect(result.status, where).toBe(2);
        expect(result.stderr, where).toMatch(/conversations\.jsonl:\d+(:\d+)?: /);
        expect(result.stderr, where).not.toMatch(/^\s+at /m);
        expect(result.stderr, where).not.toContain('internal error');
        expect(result.stderr, where).not.toContain('\u001b');
        expect(existsSync(join(dir, 'drafted')), where).toBe(false);
      }
    } finally {
      writeFileSync(path, original);
    }
  }, 120_000);
});
