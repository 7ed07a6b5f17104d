import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { calibrationFileWith, itemId, setWithItems, EXAMPLE_SET_TEXT } from '../test-support/calibration-fixture.js';
import { loadCalibrationSet } from './calibration-set-file.js';
import { FileLockTimeout } from './file-lock.js';
import { RatingConflict, removeRating, saveRating } from './save-rating.js';
import { lockPathFor, updateCalibrationSet } from './update-calibration-set.js';

const rating = (reviewer: string, score: number) => ({
  reviewer,
  rated_at: '2026-11-03T10:00:00Z',
  scores: { intent_comprehension: score, response_naturalness: score, cultural_appropriateness: score },
});

describe('saveRating', () => {
  it('writes through a symbolic link to the set (as `tui rate` saves): the link stays and its target gets the rating', async () => {
    const file = calibrationFileWith(EXAMPLE_SET_TEXT);
    const shared = join(dirname(file), 'shared');
    mkdirSync(shared);
    renameSync(file, join(shared, 'set.yaml'));
    symlinkSync('shared/set.yaml', file);
    expect(await saveRating(file, 'cal-2026-11-001', rating('rev-b', 3))).toBe('added');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(loadCalibrationSet(join(shared, 'set.yaml')).items[0]?.ratings.map((entry) => entry.reviewer)).toEqual(['rev-a', 'rev-b']);
  });

  it('refuses to write through a dangling link, creating nothing where it points', async () => {
    const file = calibrationFileWith(EXAMPLE_SET_TEXT);
    renameSync(file, `${file}.moved`);
    symlinkSync(join(dirname(file), 'gone', 'set.yaml'), file);
    await expect(saveRating(file, 'cal-2026-11-001', rating('rev-b', 3))).rejects.toThrow();
    expect(existsSync(join(dirname(file), 'gone'))).toBe(false);
  });

  it("adds a reviewer's rating and keeps every comment and the key order", async () => {
    const file = calibrationFileWith(EXAMPLE_SET_TEXT);
    expect(await saveRating(file, 'cal-2026-11-001', { ...rating('rev-b', 3), note: 'asks: "which day?" # politely' })).toBe('added');
    const text = readFileSync(file, 'utf8');
    for (const comment of ['# who runs the monthly session', '# Picked by rev-a: a good Swahili opening.', '# production | scenario:<id> | synthetic', '# already masked (section 7)']) {
      expect(text).toContain(comment);
    }
    const keys = [...text.matchAll(/^(\w+):/gm)].map((match) => match[1]);
    expect(keys).toEqual(['schema_version', 'rubric_version', 'owner', 'axes', 'items']);
    expect(text).toContain(
      '- { reviewer: rev-b, rated_at: "2026-11-03T10:00:00Z", rubric_version: "1.0.0", intent_comprehension: 3, response_naturalness: 3, cultural_appropriateness: 3, note: \'asks: "which day?" # politely\' }',
    );
    const [item] = loadCalibrationSet(file).items;
    expect(item?.ratings.map((entry) => [entry.reviewer, entry.rubric_version, entry.note])).toEqual([
      ['rev-a', '1.0.0', ''],
      ['rev-b', '1.0.0', 'asks: "which day?" # politely'],
    ]);
  });

  it("replaces the same reviewer's earlier rating of an item in place, and undoes it", async () => {
    const file = calibrationFileWith(EXAMPLE_SET_TEXT);
    expect(await saveRating(file, 'cal-2026-11-001', rating('rev-a', 2))).toBe('replaced');
    expect(loadCalibrationSet(file).items[0]?.ratings).toEqual([
      { reviewer: 'rev-a', rated_at: '2026-11-03T10:00:00Z', rubric_version: '1.0.0', intent_comprehension: 2, response_naturalness: 2, cultural_appropriateness: 2 },
    ]);
    expect(await removeRating(file, 'cal-2026-11-001', 'rev-a')).toBe(true);
    expect(await removeRating(file, 'cal-2026-11-001', 'rev-a')).toBe(false);
    expect(loadCalibrationSet(file).items[0]?.ratings).toEqual([]);
  });

  it('with `expected`, refuses to replace or remove a rating the same reviewer changed since, writing nothing', async () => {
    const file = calibrationFileWith(EXAMPLE_SET_TEXT);
    const seen = { scores: { intent_comprehension: 4, response_naturalness: 5, cultural_appropriateness: 4 } };
    const before = readFileSync(file, 'utf8');
    // rev-a's rating in the file is 4 5 4 (and an empty note): a session that saw 3 3 3 is out of date.
    const stale = { scores: { intent_comprehension: 3, response_naturalness: 3, cultural_appropriateness: 3 } };
    const conflict = await saveRating(file, 'cal-2026-11-001', rating('rev-a', 2), { expected: stale }).catch((caught: unknown) => caught);
    expect(conflict).toBeInstanceOf(RatingConflict);
    expect((conflict as RatingConflict).onDisk).toMatchObject({ reviewer: 'rev-a', intent_comprehension: 4, response_naturalness: 5 });
    await expect(saveRating(file, 'cal-2026-11-001', rating('rev-a', 2), { expected: null })).rejects.toBeInstanceOf(RatingConflict);
    await expect(removeRating(file, 'cal-2026-11-001', 'rev-a', { expected: stale })).rejects.toBeInstanceOf(RatingConflict);
    expect(readFileSync(file, 'utf8')).toBe(before);
    // What the session saw is what the file holds: saved.
    expect(await saveRating(file, 'cal-2026-11-001', rating('rev-a', 2), { expected: seen })).toBe('replaced');
    // A reviewer with no rating yet, expected none: added; expected none again: refused.
    expect(await saveRating(file, 'cal-2026-11-001', rating('rev-b', 3), { expected: null })).toBe('added');
    await expect(saveRating(file, 'cal-2026-11-001', rating('rev-b', 4), { expected: null })).rejects.toBeInstanceOf(RatingConflict);
    expect(loadCalibrationSet(file).items[0]?.ratings.map((entry) => [entry.reviewer, entry.intent_comprehension])).toEqual([
      ['rev-a', 2],
      ['rev-b', 3],
    ]);
  });

  it('records the rubric version each rating was given under', async () => {
    const file = calibrationFileWith(EXAMPLE_SET_TEXT);
    await saveRating(file, 'cal-2026-11-001', { ...rating('rev-c', 4), rubric_version: '0.9.0' });
    expect(loadCalibrationSet(file).items[0]?.ratings.map((entry) => entry.rubric_version)).toEqual(['1.0.0', '0.9.0']);
  });

  it('refuses ratings outside 1–5 and unknown axes, writing nothing', async () => {
    const file = calibrationFileWith(EXAMPLE_SET_TEXT);
    const refuse = async (scores: Record<string, number>): Promise<string> => {
      const error = await saveRating(file, 'cal-2026-11-001', { ...rating('rev-b', 3), scores }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).message;
    };
    expect(await refuse({ intent_comprehension: 6 })).toContain('rating of cal-2026-11-001 by rev-b: intent_comprehension must be a whole number from 1 to 5, got 6');
    expect(await refuse({ intent_comprehension: 2.5 })).toContain('got 2.5');
    expect(await refuse({ intent_comprehension: 0 })).toContain('got 0');
    expect(await refuse({ politeness: 3 })).toContain('"politeness" is not an axis of this set');
    await expect(saveRating(file, 'cal-2026-99-001', rating('rev-b', 3))).rejects.toThrow('no item "cal-2026-99-001"');
    expect(readFileSync(file, 'utf8')).toBe(EXAMPLE_SET_TEXT);
    expect(existsSync(lockPathFor(file))).toBe(false);
  });

  it('refuses to touch a file that does not validate', async () => {
    const broken = EXAMPLE_SET_TEXT.replace('cultural_appropriateness: 4', 'cultural_appropriateness: 9');
    const file = calibrationFileWith(broken);
    await expect(saveRating(file, 'cal-2026-11-001', rating('rev-b', 3))).rejects.toThrow(/human_labelled\.yaml:17:\d+: "cultural_appropriateness" must be at most 5/);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('merges saves made at the same time instead of overwriting', async () => {
    const file = calibrationFileWith(setWithItems(6));
    await Promise.all(
      ['rev-a', 'rev-b', 'rev-c'].flatMap((reviewer, r) => Array.from({ length: 6 }, (_, index) => saveRating(file, itemId(index), rating(reviewer, ((index + r) % 5) + 1)))),
    );
    const set = loadCalibrationSet(file);
    for (const item of set.items) expect(item.ratings.map((entry) => entry.reviewer).sort()).toEqual(['rev-a', 'rev-b', 'rev-c']);
    expect(readFileSync(file, 'utf8')).toContain('owner: calibration-owner # kept across saves');
  });

  it("breaks the lock of a process that no longer runs, and removes its half-written temp file", async () => {
    const file = calibrationFileWith(setWithItems(2));
    writeFileSync(lockPathFor(file), `999999999\n${(await import('node:os')).hostname()}\n2026-11-03T10:00:00Z\n`);
    const leftover = `${dirname(file)}/.human_labelled.yaml.999999999.deadbeef.tmp`;
    writeFileSync(leftover, 'schema_version: 1\nitems:\n  - id: half');
    await saveRating(file, itemId(0), rating('rev-a', 4));
    expect(loadCalibrationSet(file).items[0]?.ratings).toHaveLength(1);
    expect(readdirSync(dirname(file)).sort()).toEqual(['human_labelled.yaml']);
  });

  it('waits for a live lock and gives up with a message that names its holder', async () => {
    const file = calibrationFileWith(setWithItems(1));
    writeFileSync(lockPathFor(file), `${process.pid}\n${(await import('node:os')).hostname()}\n2026-11-03T10:00:00Z\n`);
    const waits: number[] = [];
    const error = await saveRating(file, itemId(0), rating('rev-a', 4), { timeoutMs: 300, wait: async (ms) => void waits.push(ms) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FileLockTimeout);
    expect((error as Error).message).toContain(`held by process ${process.pid}`);
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(300);
    expect(loadCalibrationSet(file).items[0]?.ratings).toEqual([]);
  });

  it('writes nothing when the change changes nothing', async () => {
    const file = calibrationFileWith(EXAMPLE_SET_TEXT);
    expect(await updateCalibrationSet(file, (editor) => editor.set.items.length)).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(EXAMPLE_SET_TEXT);
  });
});
