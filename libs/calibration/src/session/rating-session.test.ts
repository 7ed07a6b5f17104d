import { describe, expect, it } from 'vitest';
import { CalibrationRatingSchema, type CalibrationSet } from '@parley/config';
import { parseCalibrationSet } from '../set-file/calibration-set-file.js';
import { itemId, setWithItems } from '../test-support/calibration-fixture.js';
import { ratingOrder } from './rating-order.js';
import {
  adoptRating,
  currentItem,
  lastSaved,
  missingAxes,
  ratedPerReviewer,
  ratingProgress,
  ratingToSave,
  recordSave,
  recordSkip,
  recordUndo,
  showItem,
  startRatingSession,
  type RatingSession,
} from './rating-session.js';

const scores = { intent_comprehension: 4, response_naturalness: 5, cultural_appropriateness: 3 };

function setOf(count: number): CalibrationSet {
  return parseCalibrationSet(setWithItems(count), 'human_labelled.yaml');
}

function rate(set: CalibrationSet, id: string, reviewer: string, note?: string): void {
  set.items
    .find((item) => item.id === id)!
    .ratings.push(CalibrationRatingSchema.parse({ reviewer, rated_at: '2026-11-02T09:14:00Z', rubric_version: '1.0.0', ...scores, ...(note ? { note } : {}) }));
}

describe('a reviewer’s rating session', () => {
  it('lists every item in the reviewer’s shuffled order, stable across sessions', () => {
    const set = setOf(8);
    const session = startRatingSession(set, 'rev-a');
    expect(session.items.map((item) => item.id)).toEqual(ratingOrder(set.items.map((item) => item.id), 'rev-a'));
    expect(startRatingSession(setOf(8), 'rev-a').items.map((item) => item.id)).toEqual(session.items.map((item) => item.id));
    expect(startRatingSession(set, 'rev-b').items.map((item) => item.id)).not.toEqual(session.items.map((item) => item.id));
    expect(session.position).toBe(0);
    expect(ratingProgress(session)).toEqual({ done: 0, toDo: 8, total: 8, skipped: 0 });
  });

  it('resumes at the first item of the reviewer’s order that this reviewer has not rated', () => {
    const set = setOf(6);
    const order = ratingOrder(set.items.map((item) => item.id), 'rev-a');
    rate(set, order[0]!, 'rev-a');
    rate(set, order[1]!, 'rev-a');
    rate(set, order[3]!, 'rev-a');
    // Another reviewer's ratings do not count for rev-a.
    rate(set, order[2]!, 'rev-b');
    const session = startRatingSession(set, 'rev-a');
    expect(currentItem(session)?.id).toBe(order[2]);
    expect(ratingProgress(session)).toEqual({ done: 3, toDo: 3, total: 6, skipped: 0 });
  });

  it('is blind: an item carries the reviewer’s own rating and never another reviewer’s', () => {
    const set = setOf(2);
    rate(set, itemId(0), 'rev-b', 'rev-b thinks so');
    rate(set, itemId(1), 'rev-a', 'mine');
    const session = startRatingSession(set, 'rev-a');
    const first = session.items.find((item) => item.id === itemId(0))!;
    const second = session.items.find((item) => item.id === itemId(1))!;
    expect(first.own).toBeUndefined();
    expect(JSON.stringify(session)).not.toContain('rev-b');
    expect(second.own).toEqual({ scores, note: 'mine' });
    expect(Object.keys(first).sort()).toEqual(['id', 'language', 'source', 'transcript']);
  });

  it('after a save moves to the next unrated item, and is done when none is left', () => {
    let session = startRatingSession(setOf(3), 'rev-a');
    const order = session.items.map((item) => item.id);
    session = recordSave(session, order[0]!, { scores });
    expect(currentItem(session)?.id).toBe(order[1]);
    session = recordSave(session, order[1]!, { scores });
    session = recordSave(session, order[2]!, { scores });
    expect(currentItem(session)).toBeUndefined();
    expect(session.position).toBe(3);
    expect(ratingProgress(session)).toEqual({ done: 3, toDo: 0, total: 3, skipped: 0 });
  });

  it('a skip moves on without counting as done, and the skipped item does not come back this session', () => {
    let session = startRatingSession(setOf(2), 'rev-a');
    const order = session.items.map((item) => item.id);
    session = recordSkip(session, order[0]!, '  not sure about Swahili ');
    expect(currentItem(session)?.id).toBe(order[1]);
    expect(session.skipped).toEqual([{ id: order[0], reason: 'not sure about Swahili' }]);
    session = recordSave(session, order[1]!, { scores });
    expect(currentItem(session)).toBeUndefined();
    expect(ratingProgress(session)).toEqual({ done: 1, toDo: 1, total: 2, skipped: 1 });
  });

  it('undo takes back the last save: that item is shown again, unrated, with what was given', () => {
    let session: RatingSession = startRatingSession(setOf(3), 'rev-a');
    const order = session.items.map((item) => item.id);
    expect(recordUndo(session)).toBeUndefined();
    session = recordSave(session, order[0]!, { scores });
    session = recordSave(session, order[1]!, { scores: { ...scores, cultural_appropriateness: 1 }, note: 'abrupt' });
    expect(lastSaved(session)?.id).toBe(order[1]);
    const undone = recordUndo(session)!;
    expect(undone.restored).toEqual({ scores: { ...scores, cultural_appropriateness: 1 }, note: 'abrupt' });
    expect(currentItem(undone.session)?.id).toBe(order[1]);
    expect(currentItem(undone.session)?.own).toBeUndefined();
    expect(ratingProgress(undone.session).done).toBe(1);
    // A second undo goes one further back.
    const again = recordUndo(undone.session)!;
    expect(currentItem(again.session)?.id).toBe(order[0]);
    expect(recordUndo(again.session)).toBeUndefined();
    // Saving the undone item again continues after it.
    const resaved = recordSave(again.session, order[0]!, { scores });
    expect(currentItem(resaved)?.id).toBe(order[1]);
  });

  it('names the axes still missing and builds the rating to write', () => {
    const session = startRatingSession(setOf(1), 'rev-a');
    expect(missingAxes(session, { intent_comprehension: 4 })).toEqual(['response_naturalness', 'cultural_appropriateness']);
    expect(missingAxes(session, scores)).toEqual([]);
    expect(ratingToSave(session, { scores, note: ' short ' }, new Date('2026-11-26T07:02:03.456Z'))).toEqual({
      reviewer: 'rev-a',
      rated_at: '2026-11-26T07:02:03Z',
      rubric_version: '1.0.0',
      scores,
      note: 'short',
    });
    expect(ratingToSave(session, { scores, note: '' }, new Date('2026-11-26T07:02:03Z'))).not.toHaveProperty('note');
  });

  it('an empty set is done from the start', () => {
    const session = startRatingSession({ ...setOf(1), items: [] }, 'rev-a');
    expect(currentItem(session)).toBeUndefined();
    expect(ratingProgress(session)).toEqual({ done: 0, toDo: 0, total: 0, skipped: 0 });
  });

  it('shows any item (wrapping at both ends); a rating adopted from another session is shown but not undoable', () => {
    const set = setOf(4);
    let session = startRatingSession(set, 'rev-a');
    const ids = session.items.map((item) => item.id);
    expect(currentItem(showItem(session, -1))?.id).toBe(ids[3]);
    expect(currentItem(showItem(session, 4))?.id).toBe(ids[0]);
    session = recordSave(session, ids[0]!, { scores });
    session = adoptRating(session, ids[0]!, { scores: { ...scores, intent_comprehension: 1 } });
    expect(session.items[0]?.own?.scores.intent_comprehension).toBe(1);
    expect(lastSaved(session)).toBeUndefined();
    expect(adoptRating(session, ids[0]!, undefined).items[0]?.own).toBeUndefined();
  });

  it('counts the items each reviewer rated, apart from the session', () => {
    const set = setOf(3);
    rate(set, itemId(0), 'rev-a');
    rate(set, itemId(1), 'rev-a');
    rate(set, itemId(1), 'rev-b');
    expect(ratedPerReviewer(set)).toEqual({ 'rev-a': 2, 'rev-b': 1 });
  });
});
