import { describe, expect, it } from 'vitest';
import { calibrationDue } from './calibration-due.js';
import { session } from './test-support/report-fixture.js';

const items = (dates: string[]) => ({ items: dates.map((added) => ({ added })) });
const twelveInNovember = items(Array.from({ length: 12 }, (_, index) => `2026-11-${String(index + 10).padStart(2, '0')}`));

describe('calibrationDue', () => {
  it('is quiet within 35 days of a session that came with 10 or more new items', () => {
    const due = calibrationDue(twelveInNovember, [session('s-1', { started_at: '2026-11-30T09:00:00.000Z' })], new Date('2027-01-04T08:00:00Z'));
    expect(due).toEqual({ last_session_at: '2026-11-30T09:00:00.000Z', days_since_last_session: 34, items_added_last_session: 12, warnings: [] });
  });

  it('warns when no session finished in the last 35 days (the clock is injected)', () => {
    const due = calibrationDue(twelveInNovember, [session('s-1', { started_at: '2026-11-30T09:00:00.000Z' })], new Date('2027-01-06T10:00:00Z'));
    expect(due.warnings).toEqual(['the monthly judge calibration is overdue: the last `parley calibrate judge` session was 37 days ago (2026-11-30; due every 35 days)']);
  });

  it('counts only the items added since the session before, and ignores unfinished sessions', () => {
    const sessions = [
      session('s-3', { started_at: '2027-01-05T09:00:00.000Z', finished_at: null }),
      session('s-2', { started_at: '2026-12-28T09:00:00.000Z' }),
      session('s-1', { started_at: '2026-11-30T09:00:00.000Z' }),
    ];
    const due = calibrationDue({ items: [...twelveInNovember.items, ...items(['2026-12-02', '2026-12-20', '2027-01-02']).items] }, sessions, new Date('2027-01-06T10:00:00Z'));
    expect(due.last_session_at).toBe('2026-12-28T09:00:00.000Z');
    expect(due.items_added_last_session).toBe(2);
    expect(due.warnings).toEqual(['the last judge calibration (2026-12-28) came with 2 new items; add at least 10 each month (`parley calibrate import`)']);
  });

  it('counts a round judged twice on one day (another judge, a resumed session) from the session of the day before it', () => {
    const sessions = [
      session('s-3', { started_at: '2026-12-28T15:00:00.000Z' }),
      session('s-2', { started_at: '2026-12-28T09:00:00.000Z' }),
      session('s-1', { started_at: '2026-11-30T09:00:00.000Z' }),
    ];
    const december = items(Array.from({ length: 11 }, () => '2026-12-28'));
    const due = calibrationDue({ items: [...twelveInNovember.items, ...december.items] }, sessions, new Date('2027-01-06T10:00:00Z'));
    expect(due.last_session_at).toBe('2026-12-28T15:00:00.000Z');
    expect(due.items_added_last_session).toBe(11);
    expect(due.warnings).toEqual([]);
  });

  it('says the judges were never calibrated when there is no session', () => {
    expect(calibrationDue(twelveInNovember, [], new Date('2027-01-06T10:00:00Z')).warnings).toEqual([
      'the monthly judge calibration is overdue: the judges have never been calibrated against this set (`parley calibrate judge`)',
    ]);
  });
});
