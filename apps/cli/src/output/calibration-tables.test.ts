import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeSessionChoice, formatBias, formatInterval, formatMeasure, type CalibrationReport } from '@parley/calibration';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test-support/example-copy.js';
import { paint } from './output.js';
import { reportText } from './calibration-tables.js';

/**
 * The report `parley calibrate report` wrote for the repository's example calibration set, as it
 * is on disk: it predates the header's account of how its session was chosen (`selected_by`,
 * `unfinished_left_out`).
 */
function exampleReport(): CalibrationReport {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'calibration/reports/2026-11-26.json'), 'utf8')) as CalibrationReport;
}

const FORMAT = { describeSessionChoice, formatBias, formatInterval, formatMeasure };

describe('reportText', () => {
  it('draws the committed report from before sessions recorded how they were chosen: the choice is not recorded', () => {
    const report = exampleReport();
    expect(report.session).not.toHaveProperty('selected_by');
    const text = reportText(report, paint(false), FORMAT, 100);
    expect(text.split('\n')[1]).toBe('session: how it was chosen is not recorded (a report from before reports said so)');
    expect(text).toContain('intent_comprehension');
  });

  it('explains the "Nu" after a bootstrap interval under the table that shows one (resamples left out)', () => {
    const report = exampleReport();
    // A small set where two reviewers share three items: many resamples hold one rating value only.
    const humans = report.comparisons.find((comparison) => comparison.id === 'human_vs_human')!;
    humans.axes[0]!.bootstrap_interval.quadratic.undefined_resamples = 30;
    const text = reportText(report, paint(false), FORMAT, 80);
    expect(text).toMatch(/\b30u\b/);
    const tables = text.split('\n\n');
    const human = tables.find((table) => table.includes('human vs human'))!;
    expect(human).toContain('Nu: N bootstrap resamples with an undefined kappa were left out');
    // Tables without such an interval have no note.
    expect(tables.find((table) => table.includes('judge vs human') && table.includes('κ quadratic'))).not.toContain('Nu: N bootstrap');
  });

  it('shows an undefined gate kappa and bias whole, within 80 columns (a judge that rated nothing)', () => {
    const report = exampleReport();
    report.gate.axes = report.gate.axes.map((axis) => ({ ...axis, kappa_quadratic: null, bias: null, passed: false, problems: ['no judge-vs-human pairs'] }));
    const text = reportText(report, paint(false), FORMAT, 80);
    const gate = text.split('\n\n')[1]!;
    expect(gate).toMatch(/│ intent_comprehension\s+│ undefined\s+│ undefined\s+│ no judge-vs-human pairs\s+│/);
    for (const line of gate.split('\n')) expect(Array.from(line).length, line).toBeLessThanOrEqual(80);
  });
});
