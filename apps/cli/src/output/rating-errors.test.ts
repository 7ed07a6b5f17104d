import { describe, expect, it } from 'vitest';
import { ratingErrorLines, type RatingError } from './rating-errors.js';

const miss = (item: string, rater: RatingError['rater']): RatingError => ({ item_id: item, rater, error: `replay_miss: recording miss in scenario calibration:${item}` });

describe('ratingErrorLines', () => {
  it('is nothing without errors', () => {
    expect(ratingErrorLines([], 'calibration')).toEqual([]);
  });

  it('lists up to three errors whole, and says what to do about a replay miss with the folder to give', () => {
    const errors = [miss('cal-1', 'judge'), { item_id: 'cal-2', rater: 'cross_check' as const, error: 'provider_error: HTTP 500' }];
    expect(ratingErrorLines(errors, 'team/calibration')).toEqual([
      '2 ratings could not be made (2 items; judge 1, cross-check 1), 1 of them replay misses',
      '  cal-1 (judge): replay_miss: recording miss in scenario calibration:cal-1',
      '  cal-2 (cross-check): provider_error: HTTP 500',
      '  to rate them: `parley calibrate judge --dir team/calibration --mode record` calls the judges live and writes the recording that replay reads, or `--mode live` rates without writing one',
    ]);
  });

  it('counts the rest past the first two, and gives no replay advice for other errors', () => {
    const errors = ['cal-1', 'cal-2', 'cal-3', 'cal-4'].map((item) => ({ item_id: item, rater: 'judge' as const, error: 'unusable_answer: not JSON' }));
    expect(ratingErrorLines(errors, 'calibration')).toEqual([
      '4 ratings could not be made (4 items; judge 4)',
      '  cal-1 (judge): unusable_answer: not JSON',
      '  cal-2 (judge): unusable_answer: not JSON',
      '  … and 2 more (`--format json` lists every one)',
    ]);
  });
});
