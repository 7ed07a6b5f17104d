import { describe, expect, it } from 'vitest';
import { CalibrationRatingSchema } from '@parley/config';
import { confusionMatrix } from '../statistics/confusion-matrix.js';
import { rubricFixture } from '../test-support/judge-fixture.js';
import { modelRatings, ratedSet, session } from '../test-support/report-fixture.js';
import { buildCalibrationReport } from './calibration-report.js';
import { COMPARISONS, OVERALL } from './comparison-pairs.js';
import { agreementPerReviewer, cellItems, labelledPairs, pairsByCell, pairsInCell, pairTable } from './labelled-pairs.js';

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
});
