import { describe, expect, it } from 'vitest';
import { CalibrationRatingSchema } from '@parley/config';
import { cohenKappa } from '../statistics/cohen-kappa.js';
import { confusionMatrix } from '../statistics/confusion-matrix.js';
import { exactAgreement } from '../statistics/exact-agreement.js';
import { meanSignedDifference } from '../statistics/mean-signed-difference.js';
import type { RatingPair } from '../statistics/rating-labels.js';
import { rubricFixture } from '../test-support/judge-fixture.js';
import { modelRatings, ratedSet, session } from '../test-support/report-fixture.js';
import { buildCalibrationReport } from './calibration-report.js';
import { COMPARISONS, OVERALL } from './comparison-pairs.js';
import { agreementPerReviewer, cellItems, labelledPairs, matrixCells, pairsByCell, pairsInCell, pairTable, type LabelledPair } from './labelled-pairs.js';

const HUMANS = {
  'rev-a': [[5, 5, 5], [4, 4, 4], [3, 3, 3], [2, 2, 2], [1, 1, 1], [5, 4, 3]] as const,
  'rev-b': [[5, 5, 4], [4, 4, 4], [3, 3, 3], [2, 2, 2], [1, 1, 2], undefined] as const,
};
const JUDGE = [[5, 4, 5], [4, 4, 2], [3, 3, 3], [2, 2, 2], [1, 1, 1], [5, 4, 3]] as const;

function source() {
  const set = ratedSet(HUMANS);
  // An item rated under another rubric version does not count, as in the report.
  set.items[5]!.ratings.push(CalibrationRatingSchema.parse({ ...set.items[5]!.ratings[0]!, reviewer: 'rev-old', rubric_version: '0.9.0' }));
  const ratings = [...modelRatings(set, 's-1', 'judge', JUDGE), ...modelRatings(set, 's-1', 'cross_check', [...HUMANS['rev-a'].slice(0, 5), undefined])];
  ratings.find((rating) => rating.item_id === set.items[1]!.id && rating.rater === 'judge')!.reason = 'the booking time is never confirmed';
  return { set, ratings };
}

/** Three reviewers who skip some items, a judge and a cross-check with errors: every comparison has pairs on both sides. */
function threeReviewers() {
  const set = ratedSet({
    'rev-c': [[5, 4, 3], [2, 2, 1], undefined, [4, 4, 4], [1, 3, 5], [3, 3, 3], [5, 5, 5]],
    'rev-a': [[5, 5, 3], [2, 3, 1], [4, 4, 4], undefined, [1, 2, 5], [3, 3, 2], [5, 5, 4]],
    'rev-b': [[4, 5, 3], undefined, [4, 3, 4], [4, 4, 5], [2, 2, 5], [3, 4, 3], undefined],
  });
  const judge = [[5, 5, 3], [2, 2, 2], [4, 4, 4], [4, 5, 4], undefined, [3, 3, 3], [5, 4, 5]] as const;
  const crossCheck = [[4, 5, 3], undefined, [4, 4, 3], [4, 4, 4], [1, 2, 5], [2, 3, 3], [5, 5, 5]] as const;
  return { set, ratings: [...modelRatings(set, 's-1', 'judge', judge), ...modelRatings(set, 's-1', 'cross_check', crossCheck)] };
}

/** Per reviewer, as the agreement was first written: the reviewer's pairs as a list (the reviewer second), and the statistics of that list. */
function agreementFromLists(pairs: readonly LabelledPair[]) {
  const lists = new Map<string, RatingPair[]>();
  const add = (reviewer: string, pair: RatingPair) => lists.set(reviewer, [...(lists.get(reviewer) ?? []), pair]);
  for (const { first, second, pair } of pairs) {
    if (second === 'judge' || second === 'cross-check') continue;
    add(second, pair);
    if (first !== 'judge' && first !== 'cross-check') add(first, [pair[1], pair[0]]);
  }
  return [...lists.keys()].sort().map((reviewer) => {
    const list = lists.get(reviewer)!;
    return { reviewer, n: list.length, kappaQuadratic: cohenKappa(confusionMatrix(list), 'quadratic') ?? null, exact: exactAgreement(list) ?? null, bias: meanSignedDifference(list) ?? null };
  });
}

describe('labelledPairs', () => {
  it('counted by rating, gives the report’s confusion matrix for every comparison and axis', () => {
    const { set, ratings } = source();
    const rubric = rubricFixture();
    const report = buildCalibrationReport({
      set,
      setPath: 'calibration',
      rubric,
      session: session('s-1', { rubric_sha256: rubric.sha256 }),
      ratings,
      history: [],
      gate: { minKappa: 0.7, maxBias: 0.5 },
      bootstrap: { seed: 1, resamples: 20 },
      now: new Date('2026-12-07T10:00:00Z'),
    });
    for (const comparison of report.comparisons) {
      for (const row of comparison.axes) {
        const pairs = labelledPairs({ set, rubricVersion: '1.0.0', modelRatings: ratings }, comparison.id, row.axis);
        expect(confusionMatrix(pairs.map((entry) => entry.pair)), `${comparison.id} ${row.axis}`).toEqual(row.confusion_matrix);
      }
    }
    expect(COMPARISONS).toHaveLength(report.comparisons.length);
  });

  it('names the items behind a cell with every rating of the item side by side and the judge’s reason', () => {
    const { set, ratings } = source();
    const pairs = labelledPairs({ set, rubricVersion: '1.0.0', modelRatings: ratings }, 'judge_vs_human', 'cultural_appropriateness');
    // The judge gave 2 where both reviewers gave 4: two pairs, one item.
    const cell = pairsInCell(pairs, 2, 4);
    expect(cell.map((entry) => [entry.first, entry.second, entry.item.itemId])).toEqual([
      ['judge', 'rev-a', set.items[1]!.id],
      ['judge', 'rev-b', set.items[1]!.id],
    ]);
    expect(cell[0]!.item).toEqual({
      itemId: set.items[1]!.id,
      axis: 'cultural_appropriateness',
      judge: { score: 2, reason: 'the booking time is never confirmed' },
      crossCheck: { score: 4, reason: 'ok' },
      humans: [
        { reviewer: 'rev-a', score: 4 },
        { reviewer: 'rev-b', score: 4 },
      ],
    });
    const overall = labelledPairs({ set, rubricVersion: '1.0.0', modelRatings: ratings }, 'human_vs_human', OVERALL);
    expect(pairsInCell(overall, 5, 5).map((entry) => entry.item.axis)).toEqual(['intent_comprehension', 'response_naturalness']);
  });

  it('makes the same pairs from one pair table for every comparison and axis, sharing each item’s ratings', () => {
    const { set, ratings } = source();
    const pairSource = { set, rubricVersion: '1.0.0', modelRatings: ratings };
    const table = pairTable(pairSource);
    for (const { id: comparison } of COMPARISONS) {
      for (const axis of [...set.axes, OVERALL]) {
        expect(labelledPairs(pairSource, comparison, axis, table), `${comparison} ${axis}`).toEqual(labelledPairs(pairSource, comparison, axis));
      }
    }
    const judge = labelledPairs(pairSource, 'judge_vs_human', 'intent_comprehension', table);
    const humans = labelledPairs(pairSource, 'human_vs_human', OVERALL, table);
    const sameItem = humans.find((entry) => entry.item.itemId === judge[0]!.item.itemId && entry.item.axis === 'intent_comprehension');
    expect(sameItem?.item).toBe(judge[0]!.item);
  });

  it('sorts every pair into its cell at once, as pairsInCell gives each cell', () => {
    const { set, ratings } = source();
    for (const { id: comparison } of COMPARISONS) {
      for (const axis of [...set.axes, OVERALL]) {
        const pairs = labelledPairs({ set, rubricVersion: '1.0.0', modelRatings: ratings }, comparison, axis);
        const cells = pairsByCell(pairs);
        expect(cells.flat().reduce((sum, cell) => sum + cell.length, 0)).toBe(pairs.length);
        for (const row of [1, 2, 3, 4, 5]) {
          for (const column of [1, 2, 3, 4, 5]) expect(cells[row - 1]![column - 1], `${comparison} ${axis} ${row}/${column}`).toEqual(pairsInCell(pairs, row, column));
        }
      }
    }
  });

  it('groups a cell’s pairs by item and axis, with the raters that make them', () => {
    const { set, ratings } = source();
    const pairs = labelledPairs({ set, rubricVersion: '1.0.0', modelRatings: ratings }, 'judge_vs_human', 'cultural_appropriateness');
    const items = cellItems(pairsInCell(pairs, 2, 4));
    expect(items.map((item) => [item.ratings.itemId, [...item.inCell]])).toEqual([[set.items[1]!.id, ['judge', 'rev-a', 'rev-b']]]);
    const overall = cellItems(pairsInCell(labelledPairs({ set, rubricVersion: '1.0.0', modelRatings: ratings }, 'human_vs_human', OVERALL), 5, 5));
    expect(overall.map((item) => `${item.ratings.itemId}/${item.ratings.axis}`)).toEqual([`${set.items[0]!.id}/intent_comprehension`, `${set.items[0]!.id}/response_naturalness`]);
  });

  it('gives each reviewer’s agreement, the reviewer as the second rater', () => {
    const { set, ratings } = source();
    const judge = agreementPerReviewer(labelledPairs({ set, rubricVersion: '1.0.0', modelRatings: ratings }, 'judge_vs_human', 'intent_comprehension'));
    expect(judge.map((entry) => [entry.reviewer, entry.n, entry.exact])).toEqual([
      ['rev-a', 6, 1],
      ['rev-b', 5, 1],
    ]);
    const humans = agreementPerReviewer(labelledPairs({ set, rubricVersion: '1.0.0', modelRatings: ratings }, 'human_vs_human', 'cultural_appropriateness'));
    // They differ on items 1 (5 and 4) and 5 (1 and 2): 3 of 5 agree, no bias either way.
    expect(humans.map((entry) => [entry.reviewer, entry.n, entry.exact, entry.bias])).toEqual([
      ['rev-a', 5, 0.6, 0],
      ['rev-b', 5, 0.6, 0],
    ]);
    expect(agreementPerReviewer(labelledPairs({ set, rubricVersion: '1.0.0', modelRatings: ratings }, 'judge_vs_cross_check', OVERALL))).toEqual([]);
  });

  it('gives the statistics of each reviewer’s list of pairs, counted pair by pair', () => {
    for (const { set, ratings } of [source(), threeReviewers()]) {
      for (const { id: comparison } of COMPARISONS) {
        for (const axis of [...set.axes, OVERALL]) {
          const pairs = labelledPairs({ set, rubricVersion: '1.0.0', modelRatings: ratings }, comparison, axis);
          expect(agreementPerReviewer(pairs), `${comparison} ${axis}`).toEqual(agreementFromLists(pairs));
        }
      }
    }
  });
});

describe('matrixCells', () => {
  it('gives every cell’s pairs and items, the reviewers and their agreement as the labelled pairs do', () => {
    let items = 0;
    for (const { set, ratings } of [source(), threeReviewers()]) {
      const pairSource = { set, rubricVersion: '1.0.0', modelRatings: ratings };
      const table = pairTable(pairSource);
      for (const { id: comparison } of COMPARISONS) {
        for (const axis of [...set.axes, OVERALL]) {
          const pairs = labelledPairs(pairSource, comparison, axis, table);
          const made = matrixCells(pairSource, comparison, axis, table);
          const expected = pairsByCell(pairs).map((row) =>
            row.map((cell) => ({ pairs: cell.length, items: cellItems(cell).map((item) => ({ ratings: item.ratings, inCell: [...item.inCell] })) })),
          );
          expect(made.cells, `${comparison} ${axis}`).toEqual(expected);
          // The very objects of the pair table, so a page can write each once and name it by position.
          const expectedItems = pairsByCell(pairs).flat().map(cellItems);
          made.cells.flat().forEach((cell, index) => cell.items.forEach((item, at) => expect(item.ratings).toBe(expectedItems[index]![at]!.ratings)));
          expect(made.reviewerNames).toEqual([...new Set(pairs.flatMap((pair) => pair.item.humans.map((human) => human.reviewer)))].sort());
          expect(made.reviewers).toEqual(agreementFromLists(pairs));
          items += made.cells.flat().reduce((sum, cell) => sum + cell.items.length, 0);
        }
      }
    }
    expect(items).toBeGreaterThan(150);
  });
});
