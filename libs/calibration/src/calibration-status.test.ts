import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrationFolder } from './calibration-folder.js';
import { calibrationStatus } from './calibration-status.js';
import { openCalibrationStore } from './store/calibration-store.js';
import { modelRatings, ratedSet, session } from './test-support/report-fixture.js';

const NOW = new Date('2026-12-10T12:00:00Z');

describe('calibrationStatus', () => {
  it('counts items, ratings per reviewer, unrated items and the last judge session', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-status-'));
    const set = ratedSet({ 'rev-a': [[4, 4, 4], [3, 3, 3], undefined], 'rev-b': [[4, 4, 4], undefined, undefined] });
    delete (set.items[1]!.ratings[0] as Record<string, unknown>)['cultural_appropriateness'];
    const store = openCalibrationStore(join(dir, '.parley', 'parley.db'));
    try {
      const folder = calibrationFolder('calibration', dir);
      expect(calibrationStatus(folder, set, store, NOW).last_session).toBeNull();
      store.createSession(session('s-1'));
      for (const rating of modelRatings(set, 's-1', 'judge', [[4, 4, 4], [3, 3, 3], undefined])) store.saveRating(rating);
      expect(calibrationStatus(folder, set, store, NOW)).toEqual({
        folder: 'calibration',
        owner: 'calibration-owner',
        rubric_version: '1.0.0',
        axes: ['intent_comprehension', 'response_naturalness', 'cultural_appropriateness'],
        items: 3,
        unrated: ['cal-2026-11-003'],
        reviewers: [
          { reviewer: 'rev-a', rated: 2, complete: 1, to_rate: 1 },
          { reviewer: 'rev-b', rated: 1, complete: 1, to_rate: 2 },
        ],
        last_session: {
          id: 's-1',
          started_at: '2026-12-07T09:00:00.000Z',
          finished_at: '2026-12-07T09:05:00.000Z',
          mode: 'live',
          rubric_version: '1.0.0',
          judge: 'anthropic:claude-opus-4-7',
          cross_check: 'openai:gpt-4.1',
          ratings: 2,
          errors: 1,
        },
        sessions: 1,
        due: {
          last_session_at: '2026-12-07T09:00:00.000Z',
          days_since_last_session: 3,
          items_added_last_session: 3,
          warnings: ['the last judge calibration (2026-12-07) came with 3 new items; add at least 10 each month (`parley calibrate import`)'],
        },
      });
    } finally {
      store.close();
    }
  });
});
