import { describe, expect, it } from 'vitest';
import { rubricFixture } from '../test-support/judge-fixture.js';
import { modelRatings, ratedSet, session } from '../test-support/report-fixture.js';
import { buildCalibrationReport, type CalibrationReportInput } from './calibration-report.js';
import { calibrationReportMarkdown } from './report-markdown.js';

const rubric = rubricFixture();
const current = session('s-2', { rubric_sha256: rubric.sha256 });

/** Ten items, two reviewers who mostly agree. */
const HUMANS = {
  'rev-a': [[5, 5, 5], [4, 4, 4], [3, 3, 3], [2, 2, 2], [1, 1, 1], [5, 4, 3], [4, 3, 2], [3, 2, 1], [2, 3, 4], [1, 2, 3]] as const,
  'rev-b': [[5, 5, 4], [4, 4, 4], [3, 3, 3], [2, 2, 2], [1, 1, 2], [5, 4, 3], [4, 3, 3], [3, 2, 1], [2, 3, 4], [1, 2, 3]] as const,
};

function input(judge: ReadonlyArray<readonly [number, number, number] | undefined>, extra: Partial<CalibrationReportInput> = {}): CalibrationReportInput {
  const set = ratedSet(HUMANS);
  return {
    set,
    setPath: 'calibration',
    rubric,
    session: current,
    ratings: [...modelRatings(set, 's-2', 'judge', judge), ...modelRatings(set, 's-2', 'cross_check', HUMANS['rev-a'])],
    history: [],
    gate: { minKappa: 0.7, maxBias: 0.5 },
    bootstrap: { seed: 1, resamples: 200 },
    now: new Date('2026-12-07T10:00:00Z'),
    ...extra,
  };
}

describe('buildCalibrationReport', () => {
  it('passes the gate for a judge that agrees with people, with every comparison and statistic', () => {
    const report = buildCalibrationReport(input(HUMANS['rev-a']));
    expect(report.gate.passed).toBe(true);
    expect(report.comparisons.map((comparison) => comparison.id)).toEqual(['judge_vs_human', 'cross_check_vs_human', 'judge_vs_cross_check', 'human_vs_human']);
    const [intent, , , overall] = report.comparisons[0]!.axes;
    expect(intent).toMatchObject({ axis: 'intent_comprehension', n: 20, items: 10, bias: 0 });
    expect(overall).toMatchObject({ axis: 'overall', n: 60, items: 10 });
    expect(intent!.confusion_matrix.flat().reduce((sum, count) => sum + count, 0)).toBe(20);
    for (const key of ['unweighted', 'linear', 'quadratic'] as const) {
      expect(intent!.kappa[key]).toBeGreaterThan(0.7);
      expect(intent!.analytic_interval[key].low).toBeLessThanOrEqual(intent!.kappa[key]!);
      expect(intent!.bootstrap_interval[key].high).toBeGreaterThanOrEqual(intent!.kappa[key]! - 1e-9);
    }
    expect(report.comparisons[2]!.axes[0]).toMatchObject({ n: 10, kappa: { quadratic: 1 } });
    expect(report.comparisons[3]!.axes[2]).toMatchObject({ n: 10 });
    expect(report.alpha_all_raters.map((row) => row.raters)).toEqual(Array.from({ length: 4 }, () => ['rev-a', 'rev-b', 'judge', 'cross_check']));
    expect(report.set).toMatchObject({ items: 10, rated_items: 10, reviewers: { 'rev-a': 10, 'rev-b': 10 } });
    expect(report.warnings).toEqual([]);
  });

  it('fails the gate per axis on a low kappa or a bias beyond the limit, naming the problem', () => {
    // The judge rates cultural appropriateness one point higher than people throughout, and
    // intent at random.
    const judge = HUMANS['rev-a'].map(([, naturalness, cultural], index) => [((index * 3) % 5) + 1, naturalness, Math.min(5, cultural + 1)] as const);
    const report = buildCalibrationReport(input(judge));
    expect(report.gate.passed).toBe(false);
    const [intent, naturalness, cultural] = report.gate.axes;
    expect(intent).toMatchObject({ passed: false, problems: [expect.stringMatching(/^quadratic kappa -?0\.\d{3} is below 0\.7$/)] });
    expect(naturalness).toMatchObject({ passed: true, problems: [] });
    expect(cultural!.problems).toContainEqual(expect.stringMatching(/^bias \+0\.\d\d points is beyond ±0\.5$/));
    const lenient = buildCalibrationReport(input(judge, { gate: { minKappa: -1, maxBias: 1 } }));
    expect(lenient.gate.passed).toBe(true);
  });

  it('reports undefined kappa as null and fails the gate on it, never as 0 or 1', () => {
    const allThrees = ratedSet({ 'rev-a': Array.from({ length: 5 }, () => [3, 3, 3] as const) });
    const report = buildCalibrationReport({
      ...input([]),
      set: allThrees,
      ratings: modelRatings(allThrees, 's-2', 'judge', Array.from({ length: 5 }, () => [3, 3, 3] as const)),
    });
    const intent = report.comparisons[0]!.axes[0]!;
    expect(intent.kappa).toEqual({ unweighted: null, linear: null, quadratic: null });
    expect(intent.analytic_interval.quadratic).toEqual({ low: null, high: null, standard_error: null });
    expect(intent.bootstrap_interval.quadratic).toMatchObject({ low: null, high: null, undefined_resamples: 200 });
    expect(intent.band).toBeNull();
    expect(intent.exact_agreement).toBe(1);
    expect(report.gate.axes[0]).toMatchObject({ passed: false, problems: ['quadratic kappa is undefined (one rating value only)'] });
    expect(report.comparisons[3]!.axes.every((row) => row.n === 0)).toBe(true);
    expect(JSON.stringify(report)).not.toContain('NaN');
    expect(calibrationReportMarkdown(report)).toContain(
      '| intent_comprehension | 5 | 5 | undefined | undefined | undefined (200 undefined) | undefined | undefined | 1.000 | ±0.00 | undefined | undefined |',
    );
  });

  it('leaves out human ratings of another rubric version, stale and failed model ratings, and says so', () => {
    const set = ratedSet(HUMANS);
    set.items[0]!.ratings[0]!.rubric_version = '0.9.0';
    const base = input(HUMANS['rev-a'], { set });
    const ratings = [...modelRatings(set, 's-2', 'judge', [undefined, ...HUMANS['rev-a'].slice(1)]), ...modelRatings(set, 's-2', 'cross_check', HUMANS['rev-a'])];
    ratings[1]!.item_digest = 'changed since';
    const report = buildCalibrationReport({ ...base, ratings, rubric: rubricFixture('---\nversion: 1.0.0\n---\nOther text.\n'), parley: 'npx parley' });
    expect(report.warnings).toEqual([
      '1 human ratings were given under another rubric version than 1.0.0 and are left out',
      'rubric.md changed since session s-2 was judged: run `npx parley calibrate judge --dir calibration` again',
      '1 model ratings are of text that changed since (cal-2026-11-002): not counted',
      '2 items have no usable judge rating in session s-2 (cal-2026-11-001, cal-2026-11-002)',
    ]);
    expect(report.session.errors).toEqual([{ item_id: 'cal-2026-11-001', rater: 'judge', error: 'http: 500' }]);
    expect(report.session.rated).toEqual({ judge: 8, cross_check: 10 });
    expect(report.comparisons[0]!.axes[0]!.n).toBe(16);
  });

  it('shows the trend of earlier sessions but not replays of a recording', () => {
    const set = ratedSet(HUMANS);
    const earlier = session('s-1', { started_at: '2026-11-02T09:00:00.000Z' });
    const replay = session('s-1r', { started_at: '2026-11-03T09:00:00.000Z', mode: 'replay' });
    const skewed = HUMANS['rev-a'].map(([intent]) => [intent, 1, 1] as const);
    const report = buildCalibrationReport(
      input(HUMANS['rev-a'], {
        history: [
          { session: replay, ratings: modelRatings(set, 's-1r', 'judge', skewed) },
          { session: earlier, ratings: modelRatings(set, 's-1', 'judge', skewed) },
        ],
      }),
    );
    expect(report.trend.map((entry) => entry.session_id)).toEqual(['s-2', 's-1']);
    expect(report.trend[1]!.kappa_quadratic['intent_comprehension']).toBeGreaterThan(0.9);
    expect(report.trend[1]!.kappa_quadratic['response_naturalness']).toBeLessThan(0.2);
    expect(report.trend[1]!.bias['response_naturalness']).toBeLessThan(-1);
    // The reported session's point is its judge-vs-human rows, every axis and overall.
    const judgeVsHuman = report.comparisons.find((comparison) => comparison.id === 'judge_vs_human')!.axes;
    expect(report.trend[0]!.kappa_quadratic).toEqual(Object.fromEntries(judgeVsHuman.map((row) => [row.axis, row.kappa.quadratic])));
    expect(report.trend[0]!.bias).toEqual(Object.fromEntries(judgeVsHuman.map((row) => [row.axis, row.bias])));
  });

  it('writes a Markdown report with the gate, every comparison, matrices, alpha, trend and method', () => {
    const markdown = calibrationReportMarkdown(buildCalibrationReport(input(HUMANS['rev-a'])));
    for (const heading of ['# Calibration report 2026-12-07', '## Gate: PASS', '## Judge vs human', '## Cross-check vs human', '## Judge vs cross-check', '## Human vs human', "## Krippendorff's alpha over all raters", '## Trend', '## Method']) {
      expect(markdown).toContain(heading);
    }
    expect(markdown).toContain('| judge \\ human | 1 | 2 | 3 | 4 | 5 |');
    expect(markdown).toContain('z = 1.959963984540054');
  });
});
