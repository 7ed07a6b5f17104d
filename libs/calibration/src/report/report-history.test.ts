import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { rubricFixture } from '../test-support/judge-fixture.js';
import { modelRatings, ratedSet, session } from '../test-support/report-fixture.js';
import { buildCalibrationReport, describeSessionChoice, type CalibrationReport } from './calibration-report.js';
import { readReportHistory, reportAgreement, reportTrend } from './report-history.js';
import { calibrationReportMarkdown } from './report-markdown.js';
import { writeReportFiles } from './write-report-files.js';

const HUMANS = {
  'rev-a': [[5, 5, 5], [4, 4, 4], [3, 3, 3], [2, 2, 2], [1, 1, 1], [5, 4, 3], [4, 3, 2], [3, 2, 1]] as const,
};
const rubric = rubricFixture();

/** A report of a session on `day` whose judge gives `judge` ratings. */
function reportOn(day: string, judge: ReadonlyArray<readonly [number, number, number]>): CalibrationReport {
  const set = ratedSet(HUMANS);
  const id = `s-${day}`;
  return buildCalibrationReport({
    set,
    setPath: 'calibration',
    rubric,
    session: session(id, { rubric_sha256: rubric.sha256, started_at: `${day}T09:00:00.000Z` }),
    ratings: modelRatings(set, id, 'judge', judge),
    history: [],
    gate: { minKappa: 0.7, maxBias: 0.5 },
    bootstrap: { seed: 1, resamples: 50 },
    now: new Date(`${day}T10:00:00Z`),
  });
}

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

function reportsFolder(): string {
  folder = mkdtempSync(join(tmpdir(), 'parley-reports-'));
  return join(folder, 'reports');
}

describe('readReportHistory', () => {
  it('reads every report oldest first and gives the gate kappa trend per axis', () => {
    const dir = reportsFolder();
    // Written out of order: the history sorts by date, not by the order files appear.
    const later = reportOn('2026-12-07', HUMANS['rev-a']);
    const earlier = reportOn('2026-11-02', [[5, 5, 1], [4, 4, 5], [3, 3, 1], [2, 2, 5], [1, 1, 2], [5, 4, 5], [4, 3, 1], [3, 2, 4]]);
    writeReportFiles(dir, later, calibrationReportMarkdown(later));
    writeReportFiles(dir, earlier, calibrationReportMarkdown(earlier));

    const history = readReportHistory(dir);

    expect(history.problems).toEqual([]);
    expect(history.reports.map((entry) => entry.date)).toEqual(['2026-11-02', '2026-12-07']);
    const trend = reportTrend(history.reports);
    expect(trend.map((point) => point.passed)).toEqual([false, true]);
    expect(trend[1]!.kappa.intent_comprehension).toBe(1);
    expect(trend[0]!.kappa.cultural_appropriateness).toBeLessThan(0.7);
    expect(trend[0]!.session_id).toBe('s-2026-11-02');
    expect(trend[0]!.axisPassed).toEqual({ intent_comprehension: true, response_naturalness: true, cultural_appropriateness: false });
    const row = reportAgreement(history.reports[1]!.report, 'judge_vs_human', 'intent_comprehension');
    expect(row?.confusion_matrix.flat().reduce((sum, count) => sum + count, 0)).toBe(8);
    expect(reportAgreement(history.reports[1]!.report, 'judge_vs_human', 'no_such_axis')).toBeUndefined();
  });

  it('lists unreadable, non-JSON and other-format files as problems and keeps the good reports', () => {
    const dir = reportsFolder();
    const good = reportOn('2026-12-07', HUMANS['rev-a']);
    writeReportFiles(dir, good, calibrationReportMarkdown(good));
    writeFileSync(join(dir, '2026-12-01.json'), '{"schema_version": 1, "generated_at": ');
    writeFileSync(join(dir, '2026-12-02.json'), JSON.stringify({ ...good, schema_version: 2 }));
    writeFileSync(join(dir, '2026-12-03.json'), JSON.stringify({ ...good, gate: { ...good.gate, axes: 'none' } }));
    mkdirSync(join(dir, '2026-12-04.json'));
    writeFileSync(join(dir, 'notes.txt'), 'not a report');

    const history = readReportHistory(dir);

    expect(history.reports.map((entry) => entry.date)).toEqual(['2026-12-07']);
    expect(history.problems.map((problem) => [problem.file.slice(dir.length + 1), problem.message.split(':')[0]])).toEqual([
      ['2026-12-01.json', 'not JSON'],
      ['2026-12-02.json', 'not a calibration report (schema_version 1)'],
      ['2026-12-03.json', 'not a calibration report (schema_version 1)'],
      ['2026-12-04.json', 'cannot read'],
    ]);
    expect(history.problems[2]!.message).toContain('gate.axes');
  });

  it('is empty without a reports folder', () => {
    expect(readReportHistory(join(reportsFolder(), 'missing'))).toEqual({ reports: [], problems: [] });
  });

  it('reads the report committed in calibration/reports', () => {
    const dir = fileURLToPath(new URL('../../../../calibration/reports', import.meta.url));
    const history = readReportHistory(dir);
    expect(history.problems).toEqual([]);
    expect(history.reports.length).toBeGreaterThan(0);
    expect(history.reports.at(-1)!.report.set.axes).toContain('intent_comprehension');
  });

  it('reads the committed report from before sessions recorded how they were chosen, and says the choice is not recorded', () => {
    const dir = fileURLToPath(new URL('../../../../calibration/reports', import.meta.url));
    const stored = readReportHistory(dir).reports.find((entry) => entry.date === '2026-11-26')!.report;
    expect(stored.session).not.toHaveProperty('selected_by');
    expect(stored.session).not.toHaveProperty('unfinished_left_out');
    expect(describeSessionChoice(stored.session)).toBe('how it was chosen is not recorded (a report from before reports said so)');
    expect(calibrationReportMarkdown(stored as unknown as CalibrationReport)).toContain('how it was chosen is not recorded');
  });
});
