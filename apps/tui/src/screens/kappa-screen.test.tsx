import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CalibrationReport } from '@parley/calibration';
import { MIXED_SUITE, tempFolder, type TempFolder } from '../index-view/test-support/agent-index-fixture.js';
import { KEYS, press, renderApp, waitForFrame } from '../test-support/render-screen.js';

/** The report `parley calibrate report` wrote for the repository's calibration set. */
const REAL_REPORT: CalibrationReport = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../../calibration/reports/2026-11-26.json', import.meta.url)), 'utf8'),
);

/** An earlier session whose judge agreed less: every axis below the gate. */
function earlierReport(): CalibrationReport {
  const report: CalibrationReport = structuredClone(REAL_REPORT);
  report.generated_at = '2026-10-01T08:00:00.000Z';
  report.session.id = '20261001-080000-aaaaaa';
  report.gate.passed = false;
  report.gate.axes = report.gate.axes.map((axis, index) => ({ ...axis, kappa_quadratic: 0.4 + index * 0.1, passed: false, problems: ['quadratic kappa is below 0.7'] }));
  return report;
}

/** A later session that passes on every axis. */
function laterPassingReport(): CalibrationReport {
  const report: CalibrationReport = structuredClone(REAL_REPORT);
  report.generated_at = '2026-12-01T08:00:00.000Z';
  report.gate.passed = true;
  report.gate.axes = report.gate.axes.map((axis) => ({ ...axis, kappa_quadratic: 0.9, passed: true, problems: [] }));
  return report;
}

let folder: TempFolder;
let reportsDir: string;

beforeEach(() => {
  folder = tempFolder(MIXED_SUITE);
  reportsDir = join(folder.path, 'calibration', 'reports');
  mkdirSync(reportsDir, { recursive: true });
});
afterEach(() => folder.remove());

function writeReport(name: string, report: CalibrationReport | string): void {
  writeFileSync(join(reportsDir, name), typeof report === 'string' ? report : JSON.stringify(report, null, 2));
}

function renderKappa() {
  return renderApp({ screen: 'kappa' }, { services: { cwd: folder.path, calibrationDir: join(folder.path, 'calibration') } });
}

/** `1     7    1    0 …`: a matrix row as the screen lays it out. */
function matrixLine(rating: number, counts: readonly number[]): RegExp {
  return new RegExp(`^${rating}\\s+${counts.join('\\s+')}(\\s|$)`, 'm');
}

function matrixOf(comparison: string, axis: string): number[][] {
  const row = REAL_REPORT.comparisons.find((entry) => entry.id === comparison)!.axes.find((entry) => entry.axis === axis)!;
  return row.confusion_matrix;
}

function expectFits(frame: string) {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(24);
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
}

describe('kappa screen', () => {
  it('shows the latest report: gate per axis marked pass/FAIL with why, the confusion matrix and the trend', () => {
    writeReport('2026-10-01.json', earlierReport());
    writeReport('2026-11-26.json', REAL_REPORT);
    const frame = renderKappa().lastFrame() ?? '';

    expect(frame).toMatch(/^Kappa\s+2026-11-26 · replay · 25\/25 rated/);
    expect(frame).toContain('Gate: FAIL  quadratic κ ≥ 0.7, |bias| ≤ 0.5 · anthropic:claude-opus-4-7');
    expect(frame).toMatch(/› intent_comprehension\s+0\.974\s+0\.928\s+0\.880\s+−0\.04 pass almost perfect/);
    expect(frame).toMatch(/ {2}response_naturalness\s+0\.948\s+\S+\s+\S+\s+\+0\.14 pass/);
    expect(frame).toMatch(/ {2}cultural_appropriateness\s+0\.643\s+\S+\s+\S+\s+\+0\.34 FAIL substantial/);
    expect(frame).toMatch(/ {2}overall\s+0\.869\s+\S+\s+\S+\s+\+0\.15 —/);
    expect(frame).toContain('✗ cultural_appropriateness: quadratic kappa 0.643 is below 0.7');

    // The matrix of the selected axis, judge rows by human columns, as in the report.
    expect(frame).toContain('judge ↓ × human →');
    matrixOf('judge_vs_human', 'intent_comprehension').forEach((counts, index) => expect(frame).toMatch(matrixLine(index + 1, counts)));
    expect(frame).toContain('n 50 pairs, 25 items');

    expect(frame).toContain('Trend · 2 reports · 2026-10-01 → 2026-11-26');
    expect(frame).toMatch(/intent_comprehension\s+▄█\s+0\.974/);
    expect(frame).toMatch(/cultural_appropriateness\s+▅▆\s+0\.643/);
    expect(frame).toMatch(/gate\s+✗✗/);
    expect(frame).toMatch(/←→\/Tab\s+axis/);
    expect(frame).toMatch(/c\s+comparison/);
    expect(frame).toMatch(/q\s+quit/);
    expectFits(frame);
  });

  it('→, Tab and ← move between the axes and overall; the matrix follows', async () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    const rendered = renderKappa();
    await press(rendered, KEYS.right);
    let frame = await waitForFrame(rendered, (text) => text.includes('› response_naturalness'));
    matrixOf('judge_vs_human', 'response_naturalness').forEach((counts, index) => expect(frame).toMatch(matrixLine(index + 1, counts)));
    await press(rendered, KEYS.tab);
    frame = await waitForFrame(rendered, (text) => text.includes('› cultural_appropriateness'));
    matrixOf('judge_vs_human', 'cultural_appropriateness').forEach((counts, index) => expect(frame).toMatch(matrixLine(index + 1, counts)));
    await press(rendered, KEYS.right);
    frame = await waitForFrame(rendered, (text) => text.includes('› overall'));
    expect(frame).toContain('n 150 pairs, 25 items');
    await press(rendered, KEYS.right);
    await waitForFrame(rendered, (text) => text.includes('› intent_comprehension'));
    await press(rendered, KEYS.left);
    frame = await waitForFrame(rendered, (text) => text.includes('› overall'));
    expectFits(frame);
  });

  it('c switches the matrix to the other comparisons of the report and back', async () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    const rendered = renderKappa();
    await press(rendered, 'c');
    let frame = await waitForFrame(rendered, (text) => text.includes('cross-check ↓ × human →'));
    matrixOf('cross_check_vs_human', 'intent_comprehension').forEach((counts, index) => expect(frame).toMatch(matrixLine(index + 1, counts)));
    await press(rendered, 'c', 'c');
    frame = await waitForFrame(rendered, (text) => text.includes('human ↓ × human →'));
    matrixOf('human_vs_human', 'intent_comprehension').forEach((counts, index) => expect(frame).toMatch(matrixLine(index + 1, counts)));
    await press(rendered, 'c');
    await waitForFrame(rendered, (text) => text.includes('judge ↓ × human →'));
  });

  it('shows a passing latest report as PASS and skips unreadable report files with a note', () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    writeReport('2026-12-01.json', laterPassingReport());
    writeReport('2026-11-30.json', '{ "schema_version": 1, "generated_at": ');
    const frame = renderKappa().lastFrame() ?? '';
    expect(frame).toMatch(/^Kappa\s+2026-12-01/);
    expect(frame).toContain('Gate: PASS');
    expect(frame).not.toContain('FAIL');
    expect(frame).toMatch(/cultural_appropriateness\s+0\.900\s+\S+\s+\S+\s+\+0\.34 pass/);
    expect(frame).toContain('skipped 2026-11-30.json: not JSON');
    expect(frame).toContain('Trend · 2 reports · 2026-11-26 → 2026-12-01');
    expect(frame).toMatch(/gate\s+✗✓/);
    expectFits(frame);
  });

  it('without a report says which command makes one', () => {
    writeReport('broken.json', '[]');
    const frame = renderKappa().lastFrame() ?? '';
    expect(frame).toContain('No calibration report in calibration/reports yet.');
    expect(frame).toContain('Make one with: parley calibrate report --dir calibration');
    expect(frame).toMatch(/skipped broken\.json: not a calibration report/);
    expectFits(frame);
  });

  it('K on the index opens it and Esc goes back to the index', async () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    const rendered = renderApp(
      { screen: 'index' },
      { services: { cwd: folder.path, suitePath: folder.path, storePath: join(folder.path, '.parley', 'parley.db'), calibrationDir: join(folder.path, 'calibration') } },
    );
    await waitForFrame(rendered, (text) => text.startsWith('Agents'));
    await press(rendered, 'K');
    let frame = await waitForFrame(rendered, (text) => text.startsWith('Kappa'));
    expect(frame).toMatch(/Esc\s+back/);
    await press(rendered, KEYS.escape);
    frame = await waitForFrame(rendered, (text) => text.startsWith('Agents'));
    expect(frame).toContain('booking');
  });
});
