import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { calibrationFileWith, itemId, setWithItems } from '../test-support/calibration-fixture.js';
import { loadCalibrationSet } from './calibration-set-file.js';
import { saveRating } from './save-rating.js';

/** Real processes running the compiled library (built by the test setup). */
const SAVE_LOOP = fileURLToPath(new URL('../test-support/save-loop.mjs', import.meta.url));

function startSaving(file: string, reviewer: string, first: number, count: number): { child: ChildProcess; saved: string[]; done: Promise<number | null> } {
  const child = spawn(process.execPath, [SAVE_LOOP, file, reviewer, String(first), String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const saved: string[] = [];
  let buffer = '';
  let errors = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('saved ')) saved.push(line.slice('saved '.length));
  });
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const done = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      if (code !== 0 && code !== null) console.error(errors);
      resolve(code);
    }),
  );
  return { child, saved, done };
}

/** Resolves once the child has reported `count` saves. */
function afterSaves(saving: ReturnType<typeof startSaving>, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (saving.saved.length >= count) resolve();
    };
    saving.child.stdout!.on('data', check);
    saving.child.on('close', () => (saving.saved.length >= count ? resolve() : reject(new Error(`the save loop ended after ${saving.saved.length} saves`))));
    check();
  });
}

function expectRatingsOf(file: string, reviewer: string, ids: readonly string[]): void {
  const set = loadCalibrationSet(file);
  for (const id of ids) {
    const index = Number(id.slice(-3)) - 1;
    const score = (index % 5) + 1;
    const rating = set.items.find((item) => item.id === id)?.ratings.find((entry) => entry.reviewer === reviewer);
    expect(rating, `${reviewer}'s rating of ${id}`).toMatchObject({ intent_comprehension: score, response_naturalness: 6 - score, note: `${reviewer} #${index}` });
  }
}

describe('human_labelled.yaml under crashes and concurrent reviewers (real processes)', () => {
  it('a kill -9 during a save loop leaves a valid file with every rating saved before it', async () => {
    const file = calibrationFileWith(setWithItems(150));
    let first = 0;
    const confirmed: string[] = [];
    // Three crashes at different moments: each time the file must be valid and hold everything
    // the killed process had reported as saved (and the next process must get past its lock).
    for (const killAfter of [3, 11, 25]) {
      const saving = startSaving(file, 'rev-a', first, 150 - first);
      await afterSaves(saving, killAfter);
      saving.child.kill('SIGKILL');
      expect(await saving.done).toBeNull();
      confirmed.push(...saving.saved);
      expectRatingsOf(file, 'rev-a', confirmed);
      first += saving.saved.length + 1; // the save in flight may or may not have landed
    }
    // A later save breaks the dead process's lock and clears what it left half-written.
    await saveRating(file, itemId(149), { reviewer: 'rev-z', rated_at: '2026-11-04T08:00:00Z', scores: { intent_comprehension: 1 } });
    expect(readdirSync(dirname(file)).sort()).toEqual(['human_labelled.yaml']);
    expectRatingsOf(file, 'rev-a', confirmed);
  });

  it('two reviewers saving at the same time lose nothing', async () => {
    const file = calibrationFileWith(setWithItems(30));
    const first = startSaving(file, 'rev-a', 0, 30);
    const second = startSaving(file, 'rev-b', 0, 30);
    expect(await Promise.all([first.done, second.done])).toEqual([0, 0]);
    expect(first.saved).toHaveLength(30);
    expectRatingsOf(file, 'rev-a', first.saved);
    expectRatingsOf(file, 'rev-b', second.saved);
    expect(loadCalibrationSet(file).items.every((item) => item.ratings.length === 2)).toBe(true);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
