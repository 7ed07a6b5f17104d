import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCalibrationSet, ratingOrder, saveRating } from '@parley/calibration';
import type { CalibrationRating } from '@parley/config';
import { manualClock } from '@parley/core';
import { KEYS, press, renderApp, settle, waitForFrame, type Instance } from '../test-support/render-screen.js';
import { exampleCalibrationCopy } from './test-support/rate-fixture.js';

const NOW = new Date('2026-11-26T10:00:00Z');
const REVIEWER = 'rev-c';

function open(dir: string): Instance {
  return renderApp({ screen: 'rate' }, { services: { calibrationDir: dir, reviewer: REVIEWER, clock: manualClock(NOW) } });
}

async function until(rendered: Instance, predicate: (frame: string) => boolean): Promise<string> {
  const frame = await waitForFrame(rendered, predicate);
  await settle();
  return frame;
}

function orderIn(dir: string): string[] {
  return ratingOrder(
    loadCalibrationSet(join(dir, 'human_labelled.yaml')).items.map((item) => item.id),
    REVIEWER,
  );
}

function ratingOf(dir: string, id: string): CalibrationRating | undefined {
  return loadCalibrationSet(join(dir, 'human_labelled.yaml'))
    .items.find((item) => item.id === id)
    ?.ratings.find((rating) => rating.reviewer === REVIEWER);
}

function scoresOf(rating: CalibrationRating | undefined): unknown[] | undefined {
  return rating ? [rating.intent_comprehension, rating.response_naturalness, rating.cultural_appropriateness] : undefined;
}

function axisLine(frame: string, axis: string): string {
  return frame.split('\n').find((line) => line.includes(axis)) ?? '';
}

function expectFits(frame: string): void {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(24);
  for (const line of lines) expect(Array.from(line).length, line).toBeLessThanOrEqual(80);
}

/** The item line under the title: the id of the item shown. */
function shownItem(frame: string, ids: readonly string[]): string | undefined {
  const line = frame.split('\n')[2] ?? '';
  return ids.find((id) => line.startsWith(id));
}

describe('parley tui rate: moving between items and revising', () => {
  it('[ and ] show the previous and next item; a rated item shows your scores and Enter saves the revision in its place', async () => {
    const dir = exampleCalibrationCopy();
    const order = orderIn(dir);
    const [first, second, third] = order as [string, string, string];
    const rendered = open(dir);
    await until(rendered, (text) => shownItem(text, order) === first);
    await press(rendered, '4', '5', '3', KEYS.enter);
    await until(rendered, (text) => text.includes(`saved ${first}`) && shownItem(text, order) === second);
    await press(rendered, ']');
    await until(rendered, (text) => shownItem(text, order) === third);
    await press(rendered, '[', '[');
    let frame = await until(rendered, (text) => shownItem(text, order) === first);
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/\[4\]/);
    expect(axisLine(frame, 'cultural_appropriateness')).toMatch(/\[3\]/);
    expect(frame).toContain('you rated this item: Enter saves changed scores over your rating');
    // Revise: the third axis becomes 1; the file holds one rating of rev-c for the item, the new one.
    await press(rendered, KEYS.tab, KEYS.tab, '1', KEYS.enter);
    frame = await until(rendered, (text) => text.includes(`saved ${first}`) && shownItem(text, order) === second);
    expect(frame).toContain('1 done · 24 to do');
    expect(scoresOf(ratingOf(dir, first))).toEqual([4, 5, 1]);
    const ratings = loadCalibrationSet(join(dir, 'human_labelled.yaml')).items.find((item) => item.id === first)!.ratings;
    expect(ratings.filter((rating) => rating.reviewer === REVIEWER)).toHaveLength(1);
    // [ from the first item wraps round to the last.
    await press(rendered, '[', '[');
    await until(rendered, (text) => shownItem(text, order) === order.at(-1));
  });

  it('Enter on a rated item left unchanged writes nothing (rated_at stays) and moves on', async () => {
    const dir = exampleCalibrationCopy();
    const order = orderIn(dir);
    const [first, second] = order as [string, string];
    const file = join(dir, 'human_labelled.yaml');
    await saveRating(file, first, { reviewer: REVIEWER, rated_at: '2026-11-20T08:00:00Z', scores: { intent_comprehension: 4, response_naturalness: 4, cultural_appropriateness: 4 } });
    const rendered = open(dir);
    await until(rendered, (text) => shownItem(text, order) === second);
    await press(rendered, '[');
    let frame = await until(rendered, (text) => shownItem(text, order) === first);
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/\[4\]/);
    await press(rendered, KEYS.enter);
    frame = await until(rendered, (text) => text.includes(`${first} unchanged`));
    expect(shownItem(frame, order)).toBe(second);
    expect(ratingOf(dir, first)?.rated_at).toBe('2026-11-20T08:00:00Z');
    // A changed score is saved, with the time of the save.
    await press(rendered, '[', '5', KEYS.enter);
    await until(rendered, (text) => text.includes(`saved ${first}`));
    expect(ratingOf(dir, first)?.rated_at).toBe('2026-11-26T10:00:00Z');
    expect(scoresOf(ratingOf(dir, first))).toEqual([5, 4, 4]);
  });

  it('[ with scores not saved asks before dropping them; n keeps them', async () => {
    const dir = exampleCalibrationCopy();
    const order = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => shownItem(text, order) === order[0]);
    await press(rendered, '2', ']');
    let frame = await until(rendered, (text) => text.includes('drop them and move on? y/n'));
    await press(rendered, 'n');
    frame = await until(rendered, (text) => text.includes('kept rating'));
    expect(shownItem(frame, order)).toBe(order[0]);
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/\[2\]/);
    await press(rendered, ']', 'y');
    frame = await until(rendered, (text) => shownItem(text, order) === order[1]);
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/\[ \]/);
  });

  it('l lists the items with your scores, skipped and to do, and each reviewer’s count; / finds an item by id and Enter opens it', async () => {
    const dir = exampleCalibrationCopy();
    const order = orderIn(dir);
    const [first, second, , , fifth] = order as [string, string, string, string, string];
    const rendered = open(dir);
    await until(rendered, (text) => shownItem(text, order) === first);
    await press(rendered, '4', '5', '3', KEYS.enter);
    await until(rendered, (text) => shownItem(text, order) === second);
    await press(rendered, 's');
    for (const character of 'unclear') await press(rendered, character);
    await press(rendered, KEYS.enter);
    await until(rendered, (text) => text.includes(`skipped ${second}`));
    await press(rendered, 'l');
    let frame = await until(rendered, (text) => text.includes(`Items · ${REVIEWER}`));
    expect(frame).toContain('1 rated · 1 skipped · 23 to do');
    expect(frame).toContain(`rated per reviewer (of 25): rev-a 25 · rev-b 25 · ${REVIEWER} 1`);
    expect(frame).toMatch(new RegExp(`${first}\\s+rated\\s+4 5 3`));
    expect(frame).toMatch(new RegExp(`${second}\\s+skipped\\s+.*skipped: unclear`));
    // Blind: the list never shows another reviewer's scores.
    expect(frame).not.toMatch(/rev-a\s+\d \d \d/);
    expectFits(frame);
    // A state filter.
    await press(rendered, '/');
    for (const character of 'state:skipped') await press(rendered, character);
    frame = await until(rendered, (text) => text.includes('filter> state:skipped'));
    expect(frame).toContain(second);
    expect(frame).not.toContain(first);
    await press(rendered, KEYS.escape);
    // Typing an id and Enter jumps to that item.
    await press(rendered, '/');
    for (const character of fifth) await press(rendered, character);
    await press(rendered, KEYS.enter);
    frame = await until(rendered, (text) => text.includes(`Rate · ${REVIEWER}`) && shownItem(text, order) === fifth);
    // Back to the list, Enter on the rated item opens it with its scores.
    await press(rendered, 'l');
    await until(rendered, (text) => text.includes(`Items · ${REVIEWER}`));
    await press(rendered, 'g', KEYS.enter);
    frame = await until(rendered, (text) => text.includes(`Rate · ${REVIEWER}`) && shownItem(text, order) === first);
    expect(axisLine(frame, 'response_naturalness')).toMatch(/\[5\]/);
    // Esc closes the list without moving.
    await press(rendered, 'l');
    await until(rendered, (text) => text.includes(`Items · ${REVIEWER}`));
    await press(rendered, KEYS.escape);
    frame = await until(rendered, (text) => text.includes(`Rate · ${REVIEWER}`));
    expect(shownItem(frame, order)).toBe(first);
  });

  it('the list reads each reviewer’s count when it opens: a reviewer who rated in another session since shows', async () => {
    const dir = exampleCalibrationCopy();
    const order = orderIn(dir);
    const file = join(dir, 'human_labelled.yaml');
    const rendered = open(dir);
    await until(rendered, (text) => shownItem(text, order) === order[0]);
    await press(rendered, 'l');
    let frame = await until(rendered, (text) => text.includes(`Items · ${REVIEWER}`));
    expect(frame).toContain(`rated per reviewer (of 25): rev-a 25 · rev-b 25 · ${REVIEWER} 0`);
    await press(rendered, KEYS.escape);
    await until(rendered, (text) => text.includes(`Rate · ${REVIEWER}`));
    // Another reviewer starts rating in their own terminal.
    const scores = { intent_comprehension: 3, response_naturalness: 3, cultural_appropriateness: 3 };
    await saveRating(file, order[3]!, { reviewer: 'rev-d', rated_at: '2026-11-26T10:05:00Z', scores });
    await saveRating(file, order[4]!, { reviewer: 'rev-d', rated_at: '2026-11-26T10:06:00Z', scores });
    await press(rendered, 'l');
    frame = await until(rendered, (text) => text.includes(`Items · ${REVIEWER}`));
    expect(frame).toContain(`rated per reviewer (of 25): rev-a 25 · rev-b 25 · ${REVIEWER} 0 · rev-d 2`);
  });

  it('/ with an id and Enter in one read (a paste ending in a newline) opens that item', async () => {
    const dir = exampleCalibrationCopy();
    const order = orderIn(dir);
    const third = order[2]!;
    const rendered = open(dir);
    await until(rendered, (text) => shownItem(text, order) === order[0]);
    await press(rendered, 'l');
    await until(rendered, (text) => text.includes(`Items · ${REVIEWER}`));
    rendered.stdin.write(`/${third}\r`);
    const frame = await until(rendered, (text) => text.includes(`Rate · ${REVIEWER}`) && shownItem(text, order) === third);
    expect(frame).not.toContain('filter>');
  });
});

describe('parley tui rate: the same reviewer in two sessions', () => {
  it('a save over a rating another session saved meanwhile asks first and shows both; k keeps that one, nothing is overwritten', async () => {
    const dir = exampleCalibrationCopy();
    const order = orderIn(dir);
    const [first] = order as [string];
    const earlier = open(dir);
    const later = open(dir);
    await until(earlier, (text) => shownItem(text, order) === first);
    await until(later, (text) => shownItem(text, order) === first);
    // The first session saves; the second one, which loaded the set before, saves the same item.
    await press(earlier, '2', '2', '2', KEYS.enter);
    await until(earlier, (text) => text.includes(`saved ${first}`));
    await press(later, '5', '5', '5', KEYS.enter);
    const frame = await until(later, (text) => text.includes('not saved: another session of'));
    expect(frame).toContain(`not saved: another session of ${REVIEWER} saved ${first} meanwhile`);
    expect(frame).toContain("that one: 2 2 2 (2026-11-26 10:00 UTC) · this session's: 5 5 5");
    expectFits(frame);
    expect(scoresOf(ratingOf(dir, first))).toEqual([2, 2, 2]);
    await press(later, 'k');
    const kept = await until(later, (text) => text.includes(`kept the rating of ${first} from the other session`));
    expect(axisLine(kept, 'intent_comprehension')).toMatch(/\[2\]/);
    expect(scoresOf(ratingOf(dir, first))).toEqual([2, 2, 2]);
    // A changed score and Enter now save over the rating it knows: no question.
    await press(later, '3', KEYS.enter);
    await until(later, (text) => text.includes(`saved ${first}`));
    expect(scoresOf(ratingOf(dir, first))).toEqual([3, 2, 2]);
  });

  it('o saves this session’s rating over the other one; a rating changed again meanwhile asks again', async () => {
    const dir = exampleCalibrationCopy();
    const order = orderIn(dir);
    const [first] = order as [string];
    const rendered = open(dir);
    await until(rendered, (text) => shownItem(text, order) === first);
    const file = join(dir, 'human_labelled.yaml');
    const other = (score: number) => ({ reviewer: REVIEWER, rated_at: '2026-11-26T09:00:00Z', scores: { intent_comprehension: score, response_naturalness: score, cultural_appropriateness: score } });
    await saveRating(file, first, other(1));
    await press(rendered, '4', '4', '4', KEYS.enter);
    await until(rendered, (text) => text.includes('that one: 1 1 1'));
    await saveRating(file, first, other(3));
    await press(rendered, 'o');
    await until(rendered, (text) => text.includes('that one: 3 3 3'));
    expect(scoresOf(ratingOf(dir, first))).toEqual([3, 3, 3]);
    await press(rendered, 'o');
    await until(rendered, (text) => text.includes(`saved ${first}`) && !text.includes('not saved'));
    expect(scoresOf(ratingOf(dir, first))).toEqual([4, 4, 4]);
  });

  it('u does not take back a rating another session of the reviewer saved over this one', async () => {
    const dir = exampleCalibrationCopy();
    const order = orderIn(dir);
    const [first] = order as [string];
    const rendered = open(dir);
    await until(rendered, (text) => shownItem(text, order) === first);
    await press(rendered, '4', '4', '4', KEYS.enter);
    await until(rendered, (text) => text.includes(`saved ${first}`));
    await saveRating(join(dir, 'human_labelled.yaml'), first, { reviewer: REVIEWER, rated_at: '2026-11-26T09:30:00Z', scores: { intent_comprehension: 1, response_naturalness: 1, cultural_appropriateness: 1 } });
    await press(rendered, 'u');
    await until(rendered, (text) => text.includes(`not taken back: ${first} was changed in another session`));
    expect(scoresOf(ratingOf(dir, first))).toEqual([1, 1, 1]);
  });
});
