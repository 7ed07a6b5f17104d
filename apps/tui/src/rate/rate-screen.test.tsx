import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useEffect } from 'react';
import { Text } from 'ink';
import { describe, expect, it, vi } from 'vitest';
import { loadCalibrationSet, ratingOrder } from '@parley/calibration';
import type { CalibrationRating } from '@parley/config';
import { manualClock } from '@parley/core';
import { NavigationProvider, useNavigation } from '../navigation.js';
import { RateScreen } from '../screens/rate-screen.js';
import { KEYS, press, renderApp, renderWithProviders, settle, waitForFrame, type Instance } from '../test-support/render-screen.js';
import { calibrationFolderWith, exampleCalibrationCopy } from './test-support/rate-fixture.js';

const NOW = new Date('2026-11-26T10:00:00Z');
const REVIEWER = 'rev-c';

function open(dir: string, reviewer = REVIEWER): Instance {
  return renderApp({ screen: 'rate' }, { services: { calibrationDir: dir, reviewer, clock: manualClock(NOW) } });
}

/**
 * Waits for a frame, then lets React run the effects of that render (Ink attaches key handlers in
 * effects), so the next key is not typed into a screen that cannot hear it yet.
 */
async function until(rendered: Instance, predicate: (frame: string) => boolean): Promise<string> {
  const frame = await waitForFrame(rendered, predicate);
  await settle();
  return frame;
}

function setFile(dir: string): string {
  return join(dir, 'human_labelled.yaml');
}

/** The reviewer's order of the items in `dir` (the order itself is tested in libs/calibration). */
function orderIn(dir: string, reviewer = REVIEWER): string[] {
  return ratingOrder(
    loadCalibrationSet(setFile(dir)).items.map((item) => item.id),
    reviewer,
  );
}

function ratingOf(dir: string, id: string, reviewer = REVIEWER): CalibrationRating | undefined {
  return loadCalibrationSet(setFile(dir))
    .items.find((item) => item.id === id)
    ?.ratings.find((rating) => rating.reviewer === reviewer);
}

function ratedBy(dir: string, reviewer = REVIEWER): string[] {
  return loadCalibrationSet(setFile(dir))
    .items.filter((item) => item.ratings.some((rating) => rating.reviewer === reviewer))
    .map((item) => item.id);
}

function expectFits(frame: string): void {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(24);
  for (const line of lines) expect(Array.from(line).length, line).toBeLessThanOrEqual(80);
}

function axisLine(frame: string, axis: string): string {
  return frame.split('\n').find((line) => line.includes(axis)) ?? '';
}

/** A set of `count` items with short transcripts, optionally `extra` YAML under the first item. */
function smallSet(count: number, firstItemRatings = '[]'): string {
  const items = Array.from({ length: count }, (_, index) => {
    const id = `cal-2026-11-${String(index + 1).padStart(3, '0')}`;
    return `  - id: ${id}
    added: 2026-11-02
    source: synthetic
    language: en
    vertical: spa
    transcript:
      - { role: user, content: "Customer message of item ${index + 1}." }
      - { role: assistant, content: "Assistant answer of item ${index + 1}." }
    ratings: ${index === 0 ? firstItemRatings : '[]'}
`;
  });
  return `schema_version: 1
rubric_version: "1.0.0"
owner: calibration-owner
axes: [intent_comprehension, response_naturalness, cultural_appropriateness]
items:
${items.join('')}`;
}

function longSet(): string {
  const messages = Array.from({ length: 30 }, (_, index) =>
    index % 2 === 0 ? `      - { role: user, content: "Question number ${index}." }` : `      - { role: assistant, content: "Answer number ${index}." }`,
  );
  return `schema_version: 1
rubric_version: "1.0.0"
owner: calibration-owner
axes: [intent_comprehension, response_naturalness, cultural_appropriateness]
items:
  - id: cal-long
    added: 2026-11-02
    source: synthetic
    language: en
    transcript:
${messages.join('\n')}
    ratings: []
`;
}

describe('parley tui rate', () => {
  it('shows the first item of the reviewer’s order as a chat, the axes, the progress and the keys, within 80×24', async () => {
    const dir = exampleCalibrationCopy();
    const [first] = orderIn(dir);
    const rendered = open(dir);
    const frame = await until(rendered, (text) => text.includes(first!));
    expect(frame).toContain(`Rate · ${REVIEWER}`);
    expect(frame).toContain('0 done · 25 to do');
    expect(frame).toMatch(/^\s+user │ /m);
    expect(frame).toMatch(/^assistant │ /m);
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/▸ intent_comprehension\s+\[ \]/);
    expect(axisLine(frame, 'response_naturalness')).toMatch(/response_naturalness\s+\[ \]/);
    expect(axisLine(frame, 'cultural_appropriateness')).toMatch(/cultural_appropriateness\s+\[ \]/);
    for (const key of ['1-5', 'Tab ←→', '↑↓ PgUp/Dn', 'Enter', 's', 'u', 'n', '?', 'q']) expect(frame).toContain(` ${key} `);
    expectFits(frame);
  });

  it('4 5 3 Enter rates the three axes and saves the item at once, then shows the next one', async () => {
    const dir = exampleCalibrationCopy();
    const [first, second] = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    await press(rendered, '4', '5');
    let frame = rendered.lastFrame() ?? '';
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/\[4\]/);
    expect(axisLine(frame, 'response_naturalness')).toMatch(/\[5\]/);
    expect(axisLine(frame, 'cultural_appropriateness')).toMatch(/▸ cultural_appropriateness\s+\[ \]/);
    await press(rendered, '3', KEYS.enter);
    frame = await until(rendered, (text) => text.includes(`saved ${first}`));
    expect(frame).toContain(second!);
    expect(frame).toContain('1 done · 24 to do');
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/▸ intent_comprehension\s+\[ \]/);
    expect(ratingOf(dir, first!)).toEqual({
      reviewer: REVIEWER,
      rated_at: '2026-11-26T10:00:00Z',
      rubric_version: '1.0.0',
      intent_comprehension: 4,
      response_naturalness: 5,
      cultural_appropriateness: 3,
    });
    // The other reviewers' ratings are untouched and the comments kept.
    expect(loadCalibrationSet(setFile(dir)).items.find((item) => item.id === first)?.ratings.map((rating) => rating.reviewer)).toEqual(['rev-a', 'rev-b', REVIEWER]);
    expect(readFileSync(setFile(dir), 'utf8')).toContain('# The calibration set (docs/calibration.md)');
  });

  it('keys that arrive in one read (as from a fast terminal) are handled one by one', async () => {
    const dir = exampleCalibrationCopy();
    const [first, second] = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    rendered.stdin.write('253\r');
    await until(rendered, (text) => text.includes(second!));
    expect(ratingOf(dir, first!)).toMatchObject({ intent_comprehension: 2, response_naturalness: 5, cultural_appropriateness: 3 });
  });

  it('Tab, Shift-Tab, ← and → move the focus freely; a digit rates the focused axis', async () => {
    const dir = exampleCalibrationCopy();
    const [first] = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    await press(rendered, KEYS.tab, KEYS.tab);
    expect(axisLine(rendered.lastFrame() ?? '', 'cultural_appropriateness')).toContain('▸');
    await press(rendered, KEYS.right);
    expect(axisLine(rendered.lastFrame() ?? '', 'intent_comprehension')).toContain('▸');
    await press(rendered, KEYS.left);
    expect(axisLine(rendered.lastFrame() ?? '', 'cultural_appropriateness')).toContain('▸');
    await press(rendered, '1');
    // After the last axis the focus stays on it.
    expect(axisLine(rendered.lastFrame() ?? '', 'cultural_appropriateness')).toMatch(/▸ cultural_appropriateness\s+\[1\]/);
    await press(rendered, '\u001B[Z');
    expect(axisLine(rendered.lastFrame() ?? '', 'response_naturalness')).toMatch(/▸ response_naturalness/);
    await press(rendered, '2', KEYS.left, KEYS.left, '5', KEYS.right, '4', KEYS.enter);
    await until(rendered, (text) => text.includes(`saved ${first}`));
    expect(ratingOf(dir, first!)).toMatchObject({ intent_comprehension: 5, response_naturalness: 2, cultural_appropriateness: 4 });
  });

  it('Enter with an axis left unrated says which, moves the focus there and writes nothing', async () => {
    const dir = exampleCalibrationCopy();
    const [first] = orderIn(dir);
    const before = readFileSync(setFile(dir), 'utf8');
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    await press(rendered, '4', KEYS.tab, '3', KEYS.enter);
    const frame = await until(rendered, (text) => text.includes('not saved'));
    expect(frame).toContain('not saved: rate response_naturalness first');
    expect(axisLine(frame, 'response_naturalness')).toMatch(/▸ response_naturalness\s+\[ \]/);
    expect(frame).toContain(first!);
    expect(readFileSync(setFile(dir), 'utf8')).toBe(before);
  });

  it('s skips with an optional reason: nothing is written, the item is counted as skipped, Esc cancels', async () => {
    const dir = exampleCalibrationCopy();
    const [first, second, third] = orderIn(dir);
    const before = readFileSync(setFile(dir), 'utf8');
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    await press(rendered, 's');
    let frame = rendered.lastFrame() ?? '';
    expect(frame).toContain('skip reason (optional)>');
    expect(frame).toMatch(/Enter\s+skip item/);
    await press(rendered, KEYS.escape);
    frame = await until(rendered, (text) => !text.includes('skip reason'));
    expect(frame).toContain(first!);
    await press(rendered, 's', ...'no Swahili', KEYS.enter);
    frame = await until(rendered, (text) => text.includes(`skipped ${first}`));
    expect(frame).toContain(`skipped ${first} (no Swahili)`);
    expect(frame).toContain(second!);
    expect(frame).toContain('0 done · 25 to do · 1 skipped');
    await press(rendered, 's', KEYS.enter);
    frame = await until(rendered, (text) => text.includes(third!));
    expect(frame).toContain('2 skipped');
    expect(readFileSync(setFile(dir), 'utf8')).toBe(before);
  });

  it('u takes back the last save: the file loses it and the item comes back with its values', async () => {
    const dir = exampleCalibrationCopy();
    const [first, second, third] = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    await press(rendered, 'u');
    expect(rendered.lastFrame()).toContain('nothing to undo');
    await press(rendered, '4', '5', '3', KEYS.enter);
    await until(rendered, (text) => text.includes(second!));
    await press(rendered, '2', '1', '5', 'n', ...'abrupt', KEYS.enter, KEYS.enter);
    await until(rendered, (text) => text.includes(third!));
    expect(ratedBy(dir)).toEqual(expect.arrayContaining([first, second]));
    await press(rendered, 'u');
    const frame = await until(rendered, (text) => text.includes(`took back the rating of ${second}`));
    expect(frame).toContain(second!);
    expect(frame).toContain('1 done · 24 to do');
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/\[2\]/);
    expect(axisLine(frame, 'response_naturalness')).toMatch(/\[1\]/);
    expect(axisLine(frame, 'cultural_appropriateness')).toMatch(/\[5\]/);
    expect(frame).toContain('note: abrupt');
    expect(ratingOf(dir, second!)).toBeUndefined();
    expect(ratingOf(dir, first!)).toMatchObject({ intent_comprehension: 4 });
    // Change one value and save again: it is written with the restored ones.
    await press(rendered, KEYS.right, '3', KEYS.enter);
    await until(rendered, (text) => text.includes(`saved ${second}`));
    expect(ratingOf(dir, second!)).toMatchObject({ intent_comprehension: 2, response_naturalness: 3, cultural_appropriateness: 5, note: 'abrupt' });
  });

  it('n adds a note, saved with the rating; q typed in the note is text, Esc cancels the input', async () => {
    const dir = exampleCalibrationCopy();
    const [first] = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    await press(rendered, 'n', ...'quiet', KEYS.escape);
    let frame = await until(rendered, (text) => !text.includes('note>'));
    expect(frame).toContain('note: none');
    await press(rendered, 'n', ...'quite slow', KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.backspace, ...'terse');
    frame = rendered.lastFrame() ?? '';
    expect(frame).toContain('note> quite terse');
    expect(frame).toMatch(/Enter\s+keep note/);
    expect(frame).not.toMatch(/ q\s+quit/);
    await press(rendered, KEYS.enter);
    frame = rendered.lastFrame() ?? '';
    expect(frame).toContain('note: quite terse');
    await press(rendered, '4', '4', '4', KEYS.enter);
    await until(rendered, (text) => text.includes(`saved ${first}`));
    expect(ratingOf(dir, first!)).toMatchObject({ intent_comprehension: 4, note: 'quite terse' });
  });

  it('r shows the rubric at the focused axis with its anchors, scrolls, and Esc goes back with the scores kept', async () => {
    const dir = exampleCalibrationCopy();
    const [first] = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    await press(rendered, '4', 'r');
    let frame = rendered.lastFrame() ?? '';
    expect(frame).toContain('Rubric 1.0.0');
    expect(frame.split('\n')[2]).toContain('response_naturalness: does it read like a good human receptionist');
    expect(frame).toContain('- 5 Fluent, idiomatic, warm and concise');
    expect(frame).not.toContain(first!);
    expectFits(frame);
    await press(rendered, KEYS.up, KEYS.up);
    frame = rendered.lastFrame() ?? '';
    expect(frame).toContain('- 1 Did not understand the request at all');
    await press(rendered, KEYS.escape);
    frame = await until(rendered, (text) => text.includes(first!));
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/\[4\]/);
    expect(axisLine(frame, 'response_naturalness')).toContain('▸');
    await press(rendered, 'r', 'r');
    expect(rendered.lastFrame()).toContain(first!);
  });

  it('? shows the rubric at the focused axis, every key of the screen at its end; ? goes back and no key meanwhile rates', async () => {
    const dir = exampleCalibrationCopy();
    const [first] = orderIn(dir);
    const rendered = open(dir);
    let frame = await until(rendered, (text) => text.includes(first!));
    expect(frame).toMatch(/ \? {2}rubric /);
    expect(frame).not.toMatch(/ \? {2}keys/);
    await press(rendered, '4', '5', '?');
    frame = await until(rendered, (text) => text.startsWith('Rubric 1.0.0'));
    expect(frame.split('\n')[2]).toContain("cultural_appropriateness: is it respectful and right for the customer's");
    expect(frame).toContain('- 5 Respectful in the customer');
    expect(frame).not.toContain(first!);
    expect(frame).toMatch(/ End {2}all keys .* \? r Esc {2}back to rating/);
    expectFits(frame);
    // The full list of keys (footer and more) is at the end of the rubric, each key once.
    await press(rendered, KEYS.end);
    frame = await until(rendered, (text) => text.includes('Keys of the rating screen') && text.includes('Ctrl-C'));
    for (const line of ['1-5', 'Enter', 'r ', '\\?', 'Shift-Tab', 'Home End', 'Esc', 'q ', 'Ctrl-C']) expect(frame).toMatch(new RegExp(`^  ${line.trim()}\\s`, 'm'));
    for (const key of ['[ ]', 'l', 'q', '?']) expect(frame.match(new RegExp(`^  ${key.replace(/[[\]?]/g, '\\$&')}\\s`, 'gm'))).toHaveLength(1);
    expect(frame).toContain('previous / next item (rated ones too');
    expect(frame).toContain('the rubric, opened at the focused axis');
    expectFits(frame);
    await press(rendered, '3', '?');
    const back = await until(rendered, (text) => text.includes(first!));
    expect(axisLine(back, 'intent_comprehension')).toMatch(/\[4\]/);
    expect(axisLine(back, 'cultural_appropriateness')).toMatch(/▸ cultural_appropriateness\s+\[ \]/);
  });

  it('↑/↓ and PgUp/PgDn scroll a long transcript', async () => {
    const dir = calibrationFolderWith(longSet());
    const rendered = open(dir);
    let frame = await until(rendered, (text) => text.includes('cal-long'));
    expect(frame).toContain('lines 1–13 of 30');
    expect(frame).toContain('Question number 0.');
    expect(frame).not.toContain('Answer number 13.');
    await press(rendered, KEYS.down);
    frame = rendered.lastFrame() ?? '';
    expect(frame).toContain('lines 2–14 of 30');
    expect(frame).not.toContain('Question number 0.');
    expect(frame).toContain('Answer number 13.');
    await press(rendered, '\u001B[6~', '\u001B[6~');
    frame = rendered.lastFrame() ?? '';
    expect(frame).toContain('lines 18–30 of 30');
    expect(frame).toContain('Answer number 29.');
    await press(rendered, '\u001B[5~');
    expect(rendered.lastFrame()).toContain('lines 5–17 of 30');
    await press(rendered, KEYS.up);
    expect(rendered.lastFrame()).toContain('lines 4–16 of 30');
    expectFits(rendered.lastFrame() ?? '');
  });

  it('resumes at the first item of the reviewer’s order not rated yet', async () => {
    const dir = exampleCalibrationCopy();
    const [first, second, third] = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    await press(rendered, '4', '5', '3', KEYS.enter);
    await until(rendered, (text) => text.includes(second!));
    await press(rendered, '3', '3', '3', KEYS.enter);
    await until(rendered, (text) => text.includes(third!));
    rendered.unmount();
    const again = open(dir);
    const frame = await until(again, (text) => text.includes(third!));
    expect(frame).toContain('2 done · 23 to do');
    // rev-a rated everything: another reviewer's session starts from scratch, in its own order.
    const revD = open(dir, 'rev-d');
    const revDFrame = await until(revD, (text) => text.includes(orderIn(dir, 'rev-d')[0]!));
    expect(revDFrame).toContain('0 done · 25 to do');
  });

  it('is blind to other reviewers: their scores and notes are never shown', async () => {
    const dir = calibrationFolderWith(
      smallSet(
        1,
        `
      - { reviewer: rev-b, rated_at: "2026-11-02T09:14:00Z", rubric_version: "1.0.0", intent_comprehension: 2, response_naturalness: 3, cultural_appropriateness: 4, note: "SECRET-NOTE of rev-b" }`,
      ),
    );
    const rendered = open(dir);
    let frame = await until(rendered, (text) => text.includes('cal-2026-11-001'));
    expect(frame).not.toContain('rev-b');
    expect(frame).not.toContain('SECRET');
    expect(frame).not.toMatch(/\[[1-5]\]/);
    expect(frame).toContain('0 done · 1 to do');
    await press(rendered, 'n');
    // The note input opens empty: another reviewer's note is not offered to edit.
    expect(rendered.lastFrame()).toMatch(/^note>$/m);
    await press(rendered, KEYS.escape, '5', '5', '5', KEYS.enter);
    frame = await until(rendered, (text) => text.includes('All done'));
    expect(frame).not.toContain('rev-b');
    expect(frame).not.toContain('SECRET');
    expect(ratingOf(dir, 'cal-2026-11-001', 'rev-b')).toMatchObject({ intent_comprehension: 2, note: 'SECRET-NOTE of rev-b' });
  });

  it('shows a done screen when nothing is left, with the skipped items and why; u from there goes back', async () => {
    const dir = calibrationFolderWith(smallSet(3));
    const [first, second, third] = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    await press(rendered, '4', '4', '4', KEYS.enter);
    await until(rendered, (text) => text.includes(second!));
    await press(rendered, 's', ...'unclear', KEYS.enter);
    await until(rendered, (text) => text.includes(third!));
    await press(rendered, '5', '5', '5', KEYS.enter);
    let frame = await until(rendered, (text) => text.includes('Nothing left to rate'));
    expect(frame).toContain('2 of 3 rated');
    expect(frame).toContain(`${second} — unclear`);
    expect(frame).toMatch(/u\s+undo last/);
    expectFits(frame);
    await press(rendered, 'u');
    frame = await until(rendered, (text) => text.includes(`took back the rating of ${third}`));
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/\[5\]/);
    expect(ratedBy(dir)).toEqual([first]);
    await press(rendered, KEYS.enter);
    await until(rendered, (text) => text.includes('Nothing left to rate'));
    expect(ratedBy(dir).sort()).toEqual([first, third].sort());
  });

  it('the done screen fits 80×24 with more skipped items than rows, the message line included', async () => {
    const dir = calibrationFolderWith(smallSet(22));
    const rendered = open(dir);
    await until(rendered, (text) => text.includes('0 done · 22 to do'));
    for (let item = 0; item < 22; item += 1) await press(rendered, 's', KEYS.enter);
    const frame = await until(rendered, (text) => text.includes('Nothing left to rate'));
    expect(frame).toMatch(/… and \d+ more/);
    // Nothing is clipped at the bottom: the hint and the last message are on screen.
    expect(frame).toContain('u takes back your last rating; l lists the items to revise one; q quits.');
    expect(frame).toContain('skipped cal-2026-11-');
    expect(frame).toMatch(/u\s+undo last/);
    expectFits(frame);
  });

  it('says so when every item is rated already', async () => {
    const dir = calibrationFolderWith(smallSet(1));
    const first = open(dir);
    await until(first, (text) => text.includes('cal-2026-11-001'));
    await press(first, '1', '2', '3', KEYS.enter);
    await until(first, (text) => text.includes('All done'));
    first.unmount();
    const frame = await until(open(dir), (text) => text.includes('All done'));
    expect(frame).toContain(`All done: ${REVIEWER} has rated all 1 items.`);
    expect(frame).toContain('1 done · 0 to do');
  });

  it('on a set without items says how to add some, instead of "all done"', async () => {
    const dir = calibrationFolderWith(smallSet(0).replace(/items:\n$/, 'items: []\n'));
    const frame = await until(open(dir), (text) => text.includes('no items'));
    expect(frame).toContain('The calibration set has no items yet: nothing to rate.');
    expect(frame.replace(/\s+/g, ' ')).toContain('Add conversations with `parley calibrate import FILE` (or `c` on a scenario in triage), then rate them here.');
    expect(frame).not.toContain('All done');
    expectFits(frame);
  });

  it('Esc and q are text in an open input; Esc then leaves the session at once when nothing is unsaved', async () => {
    for (const key of [KEYS.escape]) {
      const dir = exampleCalibrationCopy();
      const rendered = renderWithProviders(
        <NavigationProvider start={{ screen: 'index' }}>
          <OpensRate />
        </NavigationProvider>,
        { services: { calibrationDir: dir, reviewer: REVIEWER, clock: manualClock(NOW) } },
      );
      await until(rendered, (text) => text.includes('0 done · 25 to do'));
      await press(rendered, 's', 'q');
      expect(rendered.lastFrame()).toContain('skip reason (optional)> q');
      await press(rendered, KEYS.escape);
      await until(rendered, (text) => !text.includes('skip reason'));
      await press(rendered, key);
      await until(rendered, (text) => text.includes('left the session'));
    }
  });

  it('Esc with scores not saved asks first: n keeps the scores, y leaves and nothing is written', async () => {
    const dir = exampleCalibrationCopy();
    const before = readFileSync(join(dir, 'human_labelled.yaml'), 'utf8');
    const [first] = orderIn(dir);
    const rendered = renderWithProviders(
      <NavigationProvider start={{ screen: 'index' }}>
        <OpensRate />
      </NavigationProvider>,
      { services: { calibrationDir: dir, reviewer: REVIEWER, clock: manualClock(NOW) } },
    );
    await until(rendered, (text) => text.includes(first!));
    await press(rendered, '4', '5', KEYS.escape);
    let frame = await until(rendered, (text) => text.includes('not saved: leave anyway'));
    expect(frame).toMatch(/y\s+leave without saving/);
    await press(rendered, 'n');
    frame = await until(rendered, (text) => text.includes('kept rating'));
    expect(axisLine(frame, 'intent_comprehension')).toMatch(/\[4\]/);
    expect(axisLine(frame, 'response_naturalness')).toMatch(/\[5\]/);
    // A second Esc asks again (it never drops the scores silently); q asks the same way.
    await press(rendered, KEYS.escape);
    await until(rendered, (text) => text.includes('not saved: leave anyway'));
    await press(rendered, KEYS.escape, 'q');
    await until(rendered, (text) => text.includes('not saved: leave anyway'));
    await press(rendered, 'n', KEYS.escape);
    await until(rendered, (text) => text.includes('not saved: leave anyway'));
    await press(rendered, 'y');
    await until(rendered, (text) => text.includes('left the session'));
    expect(readFileSync(join(dir, 'human_labelled.yaml'), 'utf8')).toBe(before);
  });

  it('a save that fails says why and keeps the item and its scores (nothing is lost)', async () => {
    const dir = exampleCalibrationCopy();
    const [first] = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    // Someone breaks the file while the session is open: the writer refuses to save over it.
    writeFileSync(setFile(dir), 'schema_version: 1\nitems: [\n');
    await press(rendered, '4', '5', '3', KEYS.enter);
    const frame = await until(rendered, (text) => text.includes('not saved:'));
    expect(frame).toContain(first!);
    expect(frame).toContain('0 done · 25 to do');
    expect(axisLine(frame, 'cultural_appropriateness')).toMatch(/\[3\]/);
    expect(readFileSync(setFile(dir), 'utf8')).toBe('schema_version: 1\nitems: [\n');
  });

  it('a save refused by a broken set says every problem whole, with its file:line:column, within 80×24', async () => {
    const dir = exampleCalibrationCopy();
    const [first] = orderIn(dir);
    const rendered = open(dir);
    await until(rendered, (text) => text.includes(first!));
    // A typo made in an editor while the session is open: two problems, each longer than a row.
    const broken = readFileSync(setFile(dir), 'utf8').replace(/content: "([^"\n]*)" \}/, 'content: "$1 }');
    writeFileSync(setFile(dir), broken);
    await press(rendered, '4', '5', '3', KEYS.enter);
    const frame = await until(rendered, (text) => text.includes('not saved:'));
    expectFits(frame);
    const lines = frame.split('\n');
    expect(lines[0]).toMatch(/^Rate · rev-c/);
    for (const axis of ['intent_comprehension', 'response_naturalness', 'cultural_appropriateness']) expect(axisLine(frame, axis)).not.toBe('');
    expect(frame).not.toContain('…');
    const message = lines.slice(lines.findIndex((line) => line.startsWith('not saved:')), -2).map((line) => line.trim()).join(' ');
    expect(message).toMatch(/human_labelled\.yaml:\d+:\d+: invalid YAML: Missing closing "quote/);
    expect(readFileSync(setFile(dir), 'utf8')).toBe(broken);
  });

  it('shows what is wrong when the set cannot be read', async () => {
    const dir = calibrationFolderWith('schema_version: 1\nrubric_version: "1.0.0"\nowner: x\naxes: [a]\nitems:\n  - id: 1\n');
    const frame = await until(open(dir), (text) => text.includes('cannot be rated'));
    expect(frame).toContain('human_labelled.yaml');
    expectFits(frame);
  });

  it('lists each problem of a broken set within the frame, and ends with exit 2', async () => {
    const dir = calibrationFolderWith('schema_version: 1\nitems:\n  - broken: [unclosed\n# a comment\nowner: "x\n');
    const setExitCode = vi.fn();
    const rendered = renderApp({ screen: 'rate' }, { services: { calibrationDir: dir, reviewer: REVIEWER, clock: manualClock(NOW), setExitCode } });
    const frame = await until(rendered, (text) => text.includes('cannot be rated'));
    expect(frame.split('\n')[0]).toMatch(/^Rate/);
    expect(frame).toMatch(/human_labelled\.yaml:\d+:\d+: invalid YAML/);
    expectFits(frame);
    expect(setExitCode).toHaveBeenCalledWith(2);
  });

  it('wraps a long problem instead of cutting it at 80 columns', async () => {
    const dir = calibrationFolderWith('schema_version: 1\nitems:\n  - id: cal-1\n    this_key_is_not_part_of_the_calibration_set_format_and_has_a_very_long_name_indeed: 1\n');
    const rendered = renderApp({ screen: 'rate' }, { services: { calibrationDir: dir, reviewer: REVIEWER, clock: manualClock(NOW) } });
    const frame = await until(rendered, (text) => text.includes('cannot be rated'));
    expectFits(frame);
    // The long key is broken over lines (continuations indented), never cut.
    const body = frame.split('\n').slice(3, -1).join('').replace(/\s+/g, '');
    expect(body).toContain('this_key_is_not_part_of_the_calibration_set_format_and_has_a_very_long_name_indeed');
    expect(frame).not.toContain('…');
  });
});

/** Opens the rate screen on top of another, so leaving it shows where q and Esc go. */
function OpensRate() {
  const navigation = useNavigation();
  useEffect(() => navigation.push({ screen: 'rate' }), []);
  return navigation.route.screen === 'rate' ? <RateScreen /> : <Text>left the session</Text>;
}
