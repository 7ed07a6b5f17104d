import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCalibrationSet, ratingOrder } from '@parley/calibration';
import type { CalibrationRating } from '@parley/config';
import { TmuxSession } from '../test-support/tmux-session.js';
import { exampleCalibrationCopy } from './test-support/rate-fixture.js';

/** The built `parley` (the test setup runs `npm run build`). */
const PARLEY = fileURLToPath(new URL('../../../cli/bin/parley.js', import.meta.url));
const REVIEWER = 'e2e-rev';

function ownRatings(dir: string): Map<string, CalibrationRating> {
  // Loading validates the whole file: a torn or half-written set would throw here.
  const set = loadCalibrationSet(join(dir, 'human_labelled.yaml'));
  const ratings = new Map<string, CalibrationRating>();
  for (const item of set.items) {
    const rating = item.ratings.find((entry) => entry.reviewer === REVIEWER);
    if (rating) ratings.set(item.id, rating);
  }
  return ratings;
}

function scoresOf(rating: CalibrationRating | undefined): (number | undefined)[] | undefined {
  return rating ? [rating.intent_comprehension, rating.response_naturalness, rating.cultural_appropriateness] : undefined;
}

/** Polls until `check` holds (bounded), like TmuxSession.waitFor but for the file on disk. */
async function waitUntil(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sessions: TmuxSession[] = [];

function start(dir: string, name: string): TmuxSession {
  const session = TmuxSession.start(`parley-rate-${process.pid}-${name}`, [process.execPath, PARLEY, 'tui', 'rate', '--reviewer', REVIEWER, '--dir', dir], { cwd: dir });
  sessions.push(session);
  return session;
}

/** Types the scores and Enter on the item shown, waiting until the next item is shown. */
async function rateItem(session: TmuxSession, scores: readonly number[], next: string): Promise<void> {
  for (const score of scores) session.keys(String(score));
  session.keys('Enter');
  await session.waitFor((screen) => screen.includes(next));
}

afterEach(() => {
  for (const session of sessions.splice(0)) session.kill();
});

describe.skipIf(!TmuxSession.available())('parley tui rate in a real terminal (tmux)', () => {
  it('rates three items with keys, undoes one, quits; after a SIGKILL mid-session every saved rating is still there', async () => {
    const dir = exampleCalibrationCopy();
    const order = ratingOrder(
      loadCalibrationSet(join(dir, 'human_labelled.yaml')).items.map((item) => item.id),
      REVIEWER,
    );
    const [first, second, third, fourth, fifth] = order as [string, string, string, string, string];

    const session = start(dir, 'first');
    // Starting takes longest (node, the bundle, the first frame), more so on a busy CI machine.
    let screen = await session.waitFor((text) => text.includes(first) && text.includes('0 done · 25 to do'));
    expect(screen).toContain(`Rate · ${REVIEWER}`);
    for (const line of screen.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
    // The first key proves the session listens before the rest are typed.
    session.keys('4');
    await session.waitFor((text) => /intent_comprehension\s+\[4\]/.test(text));
    await rateItem(session, [5, 3], second);
    await rateItem(session, [3, 4, 5], third);
    await rateItem(session, [2, 2, 1], fourth);
    screen = await session.waitFor((text) => text.includes('3 done · 22 to do'));
    session.keys('u');
    screen = await session.waitFor((text) => text.includes(`took back the rating of ${third}`));
    expect(screen).toContain('2 done · 23 to do');
    expect(screen).toMatch(/cultural_appropriateness\s+\[1\]/);
    // The scores taken back are not saved now: q asks before dropping them.
    session.keys('q');
    await session.waitFor((text) => text.includes(`${third} has scores that are not saved`));
    session.keys('y');
    await session.waitFor((text) => text.includes('[exit 0]'));

    let saved = ownRatings(dir);
    expect([...saved.keys()].sort()).toEqual([first, second].sort());
    expect(scoresOf(saved.get(first))).toEqual([4, 5, 3]);
    expect(scoresOf(saved.get(second))).toEqual([3, 4, 5]);
    expect(saved.get(first)?.rubric_version).toBe('1.0.0');
    // Other reviewers' ratings are all still there.
    const set = loadCalibrationSet(join(dir, 'human_labelled.yaml'));
    expect(set.items.every((item) => item.ratings.some((rating) => rating.reviewer === 'rev-a'))).toBe(true);
    session.kill();

    // A second session resumes at the item taken back; kill it mid-session after one more save.
    const again = start(dir, 'second');
    await again.waitFor((text) => text.includes(third) && text.includes('2 done · 23 to do'));
    again.keys('5');
    await again.waitFor((text) => /intent_comprehension\s+\[5\]/.test(text));
    await rateItem(again, [4, 4], fourth);
    await waitUntil(() => ownRatings(dir).has(third), `the rating of ${third} is on disk`);
    // Half an item typed but not saved when the process dies.
    again.keys('1', '2');
    await again.waitFor((text) => /response_naturalness\s+\[2\]/.test(text));
    process.kill(again.commandPid(), 'SIGKILL');
    await again.waitFor((text) => /\[exit \d+\]/.test(text));

    saved = ownRatings(dir);
    expect([...saved.keys()].sort()).toEqual([first, second, third].sort());
    expect(scoresOf(saved.get(first))).toEqual([4, 5, 3]);
    expect(scoresOf(saved.get(second))).toEqual([3, 4, 5]);
    expect(scoresOf(saved.get(third))).toEqual([5, 4, 4]);
    expect(saved.has(fourth)).toBe(false);
    expect(saved.has(fifth)).toBe(false);
  });

  it('Esc with half an item rated asks before leaving: n keeps the scores, a second Esc asks again, y leaves and nothing is written', async () => {
    const dir = exampleCalibrationCopy();
    const before = readFileSync(join(dir, 'human_labelled.yaml'), 'utf8');
    const session = start(dir, 'esc');
    await session.waitFor((text) => text.includes('0 done · 25 to do'));
    session.keys('4', '5');
    await session.waitFor((text) => /response_naturalness\s+\[5\]/.test(text));
    session.keys('Escape');
    await session.waitFor((text) => text.includes('has scores that are not saved: leave anyway'));
    session.keys('n');
    const screen = await session.waitFor((text) => text.includes('kept rating'));
    expect(screen).toMatch(/intent_comprehension\s+\[4\]/);
    expect(screen).toMatch(/response_naturalness\s+\[5\]/);
    // The rubric opens on ? with the keys at its end, and Esc closes it; r opens it as well; the next Esc still asks.
    session.keys('?');
    await session.waitFor((text) => text.startsWith('Rubric 1.0.0') && text.includes('? r Esc  back to rating'));
    session.keys('End');
    await session.waitFor((text) => text.includes('Keys of the rating screen') && /^ {2}Ctrl-C\s/m.test(text));
    session.keys('Escape');
    await session.waitFor((text) => text.includes('0 done · 25 to do') && !text.includes('Rubric 1.0.0'));
    session.keys('r');
    await session.waitFor((text) => text.includes('Rubric 1.0.0'));
    session.keys('Escape');
    await session.waitFor((text) => text.includes('0 done · 25 to do') && !text.includes('Rubric 1.0.0'));
    session.keys('Escape');
    await session.waitFor((text) => text.includes('has scores that are not saved: leave anyway'));
    session.keys('y');
    await session.waitFor((text) => text.includes('[exit 0]'));
    expect(readFileSync(join(dir, 'human_labelled.yaml'), 'utf8')).toBe(before);
  });

  it('the same reviewer in two terminals: the later save asks instead of overwriting, and k keeps the earlier rating', async () => {
    const dir = exampleCalibrationCopy();
    const [first, second] = ratingOrder(
      loadCalibrationSet(join(dir, 'human_labelled.yaml')).items.map((item) => item.id),
      REVIEWER,
    ) as [string, string];
    const left = start(dir, 'left');
    const right = start(dir, 'right');
    await left.waitFor((text) => text.includes(first) && text.includes('0 done · 25 to do'));
    await right.waitFor((text) => text.includes(first) && text.includes('0 done · 25 to do'));
    left.keys('2');
    await left.waitFor((text) => /intent_comprehension\s+\[2\]/.test(text));
    await rateItem(left, [2, 2], second);
    await waitUntil(() => ownRatings(dir).has(first), `the rating of ${first} is on disk`);

    right.keys('5');
    await right.waitFor((text) => /intent_comprehension\s+\[5\]/.test(text));
    right.keys('5', '5', 'Enter');
    const screen = await right.waitFor((text) => text.includes(`not saved: another session of ${REVIEWER} saved ${first} meanwhile`));
    expect(screen).toMatch(/that one: 2 2 2 \(.+ UTC\) · this session's: 5 5 5/);
    for (const line of screen.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
    expect(scoresOf(ownRatings(dir).get(first))).toEqual([2, 2, 2]);
    right.keys('k');
    await right.waitFor((text) => text.includes(`kept the rating of ${first} from the other session`) && /intent_comprehension\s+\[2\]/.test(text));
    expect(scoresOf(ownRatings(dir).get(first))).toEqual([2, 2, 2]);
    // The item list shows the kept rating as this reviewer's; `?` lists its keys.
    right.keys('l');
    const list = await right.waitFor((text) => text.startsWith(`Items · ${REVIEWER}`));
    expect(list).toMatch(new RegExp(`${first}\\s+rated\\s+2 2 2`));
    right.keys('?');
    await right.waitFor((text) => text.startsWith(`Keys · Items · ${REVIEWER}`) && text.includes('/ ID Enter'));
  });
});
