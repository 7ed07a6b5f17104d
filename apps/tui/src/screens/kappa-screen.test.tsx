import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCalibrationSet, openCalibrationStore, transcriptDigest, type CalibrationReport } from '@parley/calibration';
import { CalibrationRatingSchema } from '@parley/config';
import { EXAMPLE_CALIBRATION } from '../rate/test-support/rate-fixture.js';
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
  report.comparisons[0]!.axes[0]!.kappa.quadratic = 0.9;
  return report;
}

/** A later session that passes on every axis. */
function laterPassingReport(): CalibrationReport {
  const report: CalibrationReport = structuredClone(REAL_REPORT);
  report.generated_at = '2026-12-01T08:00:00.000Z';
  report.gate.passed = true;
  report.gate.axes = report.gate.axes.map((axis) => ({ ...axis, kappa_quadratic: 0.9, passed: true, problems: [] }));
  for (const row of report.comparisons[0]!.axes) row.kappa.quadratic = 0.9;
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

/** The example set with three more reviewers who rate as rev-a did: five in all, room for three at 80×24. */
function writeSetOfFiveReviewers(): void {
  const set = loadCalibrationSet(join(EXAMPLE_CALIBRATION, 'human_labelled.yaml'));
  for (const item of set.items) {
    const revA = item.ratings.find((rating) => rating.reviewer === 'rev-a')!;
    for (const reviewer of ['rev-c', 'rev-d', 'rev-e']) item.ratings.push(CalibrationRatingSchema.parse({ ...revA, reviewer }));
  }
  // JSON is YAML: the set is written as it was read.
  writeFileSync(join(folder.path, 'calibration', 'human_labelled.yaml'), JSON.stringify(set));
}

function renderKappa(parleyCommand?: () => string) {
  return renderApp({ screen: 'kappa' }, { services: { cwd: folder.path, calibrationDir: join(folder.path, 'calibration'), ...(parleyCommand ? { parleyCommand } : {}) } });
}

/** `1     7    1    0 …`: a matrix row as the screen lays it out. */
function matrixLine(rating: number, counts: readonly number[]): RegExp {
  // The cell under the cursor is shown as `[  1]`.
  return new RegExp(`^${rating}[\\s\\[]+${counts.join('[\\s\\[\\]]+')}(\\s|\\]|$)`, 'm');
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
  it('shows the latest report: the comparison per axis with 95 % intervals, change, ceiling and gate, the matrix, per reviewer and the trend', () => {
    copyFileSync(join(EXAMPLE_CALIBRATION, 'human_labelled.yaml'), join(folder.path, 'calibration', 'human_labelled.yaml'));
    writeReport('2026-10-01.json', earlierReport());
    writeReport('2026-11-26.json', REAL_REPORT);
    const frame = renderKappa().lastFrame() ?? '';

    expect(frame).toMatch(/^Kappa\s+report 2026-11-26 \d\d:\d\d UTC · replay · 25\/25 rated/);
    expect(frame).toContain('Gate: FAIL  quadratic κ ≥ 0.7, |bias| ≤ 0.5 · anthropic:claude-opus-4-7');
    expect(frame).toMatch(/JUDGE VS HUMAN\s+κ quad\s+95 % CI\s+exact\s+bias\s+Δ prev\s+ceil\s+gate/);
    // κ, its bootstrap interval, exact, bias, the change since 2026-10-01 (0.900 then), the human ceiling, the gate.
    expect(frame).toMatch(/> intent_comprehension\s+0\.974\s+0\.944–0\.991\s+0\.880\s+−0\.04\s+\+0\.074\s+0\.948 pass/);
    expect(frame).toMatch(/ {2}response_naturalness\s+0\.948\s+0\.898–0\.980\s+\S+\s+\+0\.14\s+±0\.000\s+0\.919 pass/);
    expect(frame).toMatch(/ {2}cultural_appropriateness\s+0\.643\s+0\.392–0\.800\s+\S+\s+\+0\.34\s+±0\.000\s+0\.930 FAIL/);
    expect(frame).toMatch(/ {2}overall\s+0\.869\s+\S+\s+\S+\s+\+0\.15\s+±0\.000\s+0\.934 —/);
    expect(frame).toContain('band almost perfect · κ lin 0.928 · 50 pairs, 25 items · Δ vs 2026-10-01');
    expect(frame).toContain('✗ cultural_appropriateness: quadratic kappa 0.643 is below 0.7');

    // The matrix of the selected axis, judge rows by human columns, as in the report; the cursor
    // starts on the commonest disagreement.
    expect(frame).toContain('judge ↓ × human →');
    expect(frame).toMatch(/^1\s+7\[ {2}1\]\s+0\s+0\s+0/m);
    matrixOf('judge_vs_human', 'intent_comprehension').forEach((counts, index) => expect(frame).toMatch(matrixLine(index + 1, counts)));
    expect(frame).toContain('n 50 pairs, 25 items');
    // No judge session in this folder's store: per reviewer says where the ratings would come from.
    expect(frame).toContain('per reviewer');
    expect(frame).toContain('no judge ratings of session');
    expect(frame).toContain('20261126-061217-d44d68 in .parley/parley.db');

    expect(frame).toContain('Trend · 2 reports · 2026-10-01 → 2026-11-26');
    expect(frame).toMatch(/intent_comprehension\s+▄█\s+0\.974/);
    expect(frame).toMatch(/cultural_appropriateness\s+▅▆\s+0\.643/);
    expect(frame).toMatch(/gate\s+✗✗/);
    for (const key of [/Tab\s+axis/, /c\s+comparison/, /←→↑↓\s+cell/, /Enter\s+items in cell/, /q\s+quit/]) expect(frame).toMatch(key);
    expectFits(frame);
  });

  it('Tab and Shift-Tab move between the axes and overall; the matrix follows', async () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    const rendered = renderKappa();
    await press(rendered, KEYS.tab);
    let frame = await waitForFrame(rendered, (text) => text.includes('> response_naturalness'));
    matrixOf('judge_vs_human', 'response_naturalness').forEach((counts, index) => expect(frame).toMatch(matrixLine(index + 1, counts)));
    await press(rendered, KEYS.tab);
    frame = await waitForFrame(rendered, (text) => text.includes('> cultural_appropriateness'));
    matrixOf('judge_vs_human', 'cultural_appropriateness').forEach((counts, index) => expect(frame).toMatch(matrixLine(index + 1, counts)));
    await press(rendered, KEYS.tab);
    frame = await waitForFrame(rendered, (text) => text.includes('> overall'));
    expect(frame).toContain('n 150 pairs, 25 items');
    await press(rendered, KEYS.tab);
    await waitForFrame(rendered, (text) => text.includes('> intent_comprehension'));
    await press(rendered, KEYS.shiftTab);
    frame = await waitForFrame(rendered, (text) => text.includes('> overall'));
    expectFits(frame);
  });

  it('c switches the table and the matrix to the other comparisons of the report and back', async () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    const rendered = renderKappa();
    await press(rendered, 'c');
    let frame = await waitForFrame(rendered, (text) => text.includes('cross-check ↓ × human →'));
    expect(frame).toMatch(/CROSS-CHECK VS HUMAN\s+κ quad/);
    expect(frame).toMatch(/> intent_comprehension\s+0\.893\s+0\.809–0\.937/);
    matrixOf('cross_check_vs_human', 'intent_comprehension').forEach((counts, index) => expect(frame).toMatch(matrixLine(index + 1, counts)));
    await press(rendered, 'c', 'c');
    frame = await waitForFrame(rendered, (text) => text.includes('human ↓ × human →'));
    matrixOf('human_vs_human', 'intent_comprehension').forEach((counts, index) => expect(frame).toMatch(matrixLine(index + 1, counts)));
    await press(rendered, 'c');
    await waitForFrame(rendered, (text) => text.includes('judge ↓ × human →'));
  });

  it('arrows move the cell cursor; Enter lists the items behind the cell with every rating side by side', async () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    copyFileSync(join(EXAMPLE_CALIBRATION, 'human_labelled.yaml'), join(folder.path, 'calibration', 'human_labelled.yaml'));
    const rendered = renderKappa();
    await press(rendered, 'c', 'c', 'c');
    let frame = await waitForFrame(rendered, (text) => text.includes('human ↓ × human →'));
    // Per reviewer, from the set: each reviewer against the other.
    expect(frame).toMatch(/rev-a\s+0\.948\s+0\.760\s+\+0\.08\s+25/);
    expect(frame).toMatch(/rev-b\s+0\.948\s+0\.760\s+−0\.08\s+25/);
    await press(rendered, KEYS.down, KEYS.down, KEYS.right, KEYS.right);
    frame = await waitForFrame(rendered, (text) => /^3\s+0\s+0\s+3\[ {2}1\]/m.test(text));
    await press(rendered, KEYS.enter);
    frame = await waitForFrame(rendered, (text) => text.startsWith('Kappa · human vs human · intent_comprehension'));
    expect(frame).toContain('human gave 3, human gave 4 (1 apart)');
    expect(frame).toMatch(/1 item · 1 pair/);
    expect(frame).toMatch(/> cal-2026-11-\d{3}\s+·\s+·\s+3\s+4/);
    expectFits(frame);
    await press(rendered, KEYS.escape);
    frame = await waitForFrame(rendered, (text) => text.includes('human ↓ × human →'));
    // The cursor stayed where it was.
    expect(frame).toMatch(/^3\s+0\s+0\s+3\[ {2}1\]/m);
  });

  it('Enter on a judge cell without the session’s ratings in the store says why instead of listing nothing', async () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    copyFileSync(join(EXAMPLE_CALIBRATION, 'human_labelled.yaml'), join(folder.path, 'calibration', 'human_labelled.yaml'));
    const rendered = renderKappa();
    await press(rendered, KEYS.enter);
    const frame = await waitForFrame(rendered, (text) => text.includes('cannot list the items: no judge ratings of session'));
    expect(frame).toMatch(/^Kappa\s+report 2026-11-26/);
    // At 80 columns the message wraps: the command to run is on screen whole.
    expect(frame.replace(/\s+/g, ' ')).toContain('in .parley/parley.db here: `parley calibrate report` replays them');
    expectFits(frame);
  });

  it('lists the judge’s reason and every rating of the items behind a judge-vs-human cell', async () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    const setFile = join(folder.path, 'calibration', 'human_labelled.yaml');
    copyFileSync(join(EXAMPLE_CALIBRATION, 'human_labelled.yaml'), setFile);
    const set = loadCalibrationSet(setFile);
    const storePath = join(folder.path, '.parley', 'parley.db');
    mkdirSync(dirname(storePath), { recursive: true });
    const store = openCalibrationStore(storePath);
    const sessionId = REAL_REPORT.session.id;
    store.createSession({ id: sessionId, set_path: 'calibration', started_at: REAL_REPORT.session.started_at, finished_at: REAL_REPORT.session.finished_at, mode: 'replay', rubric_version: '1.0.0', rubric_sha256: 'a'.repeat(64), raters: { judge: { provider: 'anthropic', model: 'claude-opus-4-7' } }, items: set.items.length, parley_version: '0.1.0' });
    // The judge agrees with rev-a everywhere but on the first item's intent, where it gives 1.
    set.items.forEach((item, index) => {
      const revA = item.ratings.find((rating) => rating.reviewer === 'rev-a')!;
      const scores = Object.fromEntries(set.axes.map((axis) => [axis, index === 0 && axis === 'intent_comprehension' ? 1 : Number(revA[axis])]));
      store.saveRating({ session_id: sessionId, item_id: item.id, rater: 'judge', provider: 'anthropic', model: 'claude-opus-4-7', item_digest: transcriptDigest(item.transcript), cache_key: `k${index}`, scores, reason: index === 0 ? 'The assistant ignored the requested day entirely.' : 'fine', error: null, raw_output: null, cached: false, input_tokens: 0, output_tokens: 0, cost_usd: 0, latency_ms: 0 });
    });
    store.close();
    const first = set.items[0]!;
    const humans = first.ratings.map((rating) => [rating.reviewer, Number(rating.intent_comprehension)] as const).sort();
    const rendered = renderApp({ screen: 'kappa' }, { services: { cwd: folder.path, calibrationDir: join(folder.path, 'calibration'), storePath } });
    let frame = await waitForFrame(rendered, (text) => text.includes('judge ↓ × human →'));
    expect(frame).toMatch(/rev-a\s+0\.\d{3}\s+0\.960\s+/);
    // Move the cursor to judge 1 × the first item's rev-a rating.
    const target = humans.find(([reviewer]) => reviewer === 'rev-a')![1];
    await press(rendered, ...Array.from({ length: 4 }, () => KEYS.up), ...Array.from({ length: 4 }, () => KEYS.left), ...Array.from({ length: target - 1 }, () => KEYS.right));
    await press(rendered, KEYS.enter);
    frame = await waitForFrame(rendered, (text) => text.startsWith('Kappa · judge vs human · intent_comprehension'));
    expect(frame).toContain(`judge gave 1, human gave ${target}`);
    expect(frame).toMatch(new RegExp(`> ${first.id}\\s+1\\s+·\\s+${humans[0]![1]}\\s+${humans[1]![1]}`));
    expect(frame).toContain('judge 1: The assistant ignored the requested day entirely.');
    // The report was made from other judge ratings: the screen says the count differs.
    expect(frame).toMatch(/the report of 2026-11-26 counted \d+ here: the set or the ratings changed since/);
    expectFits(frame);
  });

  it('shows a passing latest report as PASS and skips unreadable report files with a note', () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    writeReport('2026-12-01.json', laterPassingReport());
    writeReport('2026-11-30.json', '{ "schema_version": 1, "generated_at": ');
    const frame = renderKappa().lastFrame() ?? '';
    expect(frame).toMatch(/^Kappa\s+report 2026-12-01/);
    expect(frame).toContain('Gate: PASS');
    expect(frame).not.toContain('FAIL');
    expect(frame).toMatch(/cultural_appropriateness\s+0\.900\s+\S+\s+\S+\s+\+0\.34\s+\+0\.257\s+0\.930 pass/);
    expect(frame).toContain('skipped 2026-11-30.json: not JSON');
    expect(frame).toContain('Trend · 2 reports · 2026-11-26 → 2026-12-01');
    expect(frame).toMatch(/gate\s+✗✓/);
    expectFits(frame);
  });

  it('shows negative kappas and intervals whole at 80 columns: two decimals where three do not fit', () => {
    // A small set where the judge and people disagree: intervals reach below zero, and two
    // reviewers who rated three items each disagree with each other (a negative ceiling).
    const report: CalibrationReport = structuredClone(REAL_REPORT);
    const judgeRow = report.comparisons[0]!.axes[0]!;
    judgeRow.kappa.quadratic = 0.121;
    judgeRow.bootstrap_interval.quadratic = { ...judgeRow.bootstrap_interval.quadratic, low: -0.296, high: 0.491 };
    const humanRow = report.comparisons.find((entry) => entry.id === 'human_vs_human')!.axes[0]!;
    humanRow.kappa.quadratic = -0.8;
    humanRow.bootstrap_interval.quadratic = { ...humanRow.bootstrap_interval.quadratic, low: -1, high: -0.032 };
    writeReport('2026-11-26.json', report);
    const frame = renderKappa().lastFrame() ?? '';
    expect(frame).toMatch(/> intent_comprehension\s+0\.121\s+-0\.30–0\.49\s+\S+\s+\S+\s+-0\.80 pass/);
    expect(frame).not.toContain('…');
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

  it('names the command as the person runs Parley (npx parley for a local install)', () => {
    const frame = renderKappa(() => 'npx parley').lastFrame() ?? '';
    expect(frame).toContain('Make one with: npx parley calibrate report --dir calibration');
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

  it('? explains every column in full at 80×24: the explanations wrap instead of being cut', async () => {
    copyFileSync(join(EXAMPLE_CALIBRATION, 'human_labelled.yaml'), join(folder.path, 'calibration', 'human_labelled.yaml'));
    writeReport('2026-11-26.json', REAL_REPORT);
    const rendered = renderKappa();
    await waitForFrame(rendered, (text) => text.includes('JUDGE VS HUMAN'));
    await press(rendered, '?');
    const frame = await waitForFrame(rendered, (text) => text.startsWith('Keys · Kappa'));
    const flat = frame.replace(/\s+/g, ' ');
    expect(flat).toContain('the first rater against each reviewer (human vs human: the others); bias = first − reviewer');
    expect(flat).toContain('quadratic-weighted kappa (the gate); 95 % CI: its bootstrap interval over items');
    expect(frame).not.toContain('…');
    expectFits(frame);
  });

  it('per reviewer says how many more reviewers there are than rows, and PgDn shows them', async () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    writeSetOfFiveReviewers();
    const rendered = renderKappa();
    await press(rendered, 'c', 'c', 'c');
    const frame = await waitForFrame(rendered, (text) => text.includes('human ↓ × human →'));
    // As many as fit at 80×24 (the note about the changed set takes rows), and how many more.
    expect(frame).toMatch(/rev-a\s+\d\.\d{3}/);
    expect(frame).not.toMatch(/rev-e\s+\d\.\d{3}/);
    const shown = (frame.match(/rev-[a-e]\s+\d\.\d{3}/g) ?? []).length;
    expect(frame).toContain(`… ${5 - shown} more below (PgDn)`);
    expectFits(frame);
    // PgDn pages on to the rest; the table's source and the set's are both named.
    for (let page = 0; page < 5; page += 1) await press(rendered, KEYS.pageDown);
    const scrolled = await waitForFrame(rendered, (text) => /rev-e\s+\d\.\d{3}/.test(text));
    expect(scrolled).not.toMatch(/rev-a\s+\d\.\d{3}/);
    expect(scrolled).toContain(`${5 - shown} above (PgUp)`);
    expect(scrolled).toContain('the set changed since this report');
    expect(scrolled).toMatch(/per reviewer · set read \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  });

  it('/ narrows per reviewer to the reviewers whose name has the text; Esc clears it', async () => {
    writeReport('2026-11-26.json', REAL_REPORT);
    writeSetOfFiveReviewers();
    const rendered = renderKappa();
    await press(rendered, 'c', 'c', 'c');
    await waitForFrame(rendered, (text) => text.includes('human ↓ × human →'));
    await press(rendered, '/', ...'rev-e', KEYS.enter);
    let frame = await waitForFrame(rendered, (text) => text.includes('per reviewer · filter> rev-e (1 of'));
    expect(frame).toMatch(/rev-e\s+\d\.\d{3}/);
    expect(frame).not.toMatch(/rev-[a-d]\s+\d\.\d{3}/);
    expect(frame).not.toContain('more below');
    expectFits(frame);
    // The matrix keys are back after Enter; Esc clears the filter before it goes back.
    await press(rendered, KEYS.escape);
    frame = await waitForFrame(rendered, (text) => text.includes('per reviewer · set read'));
    expect(frame).toMatch(/rev-a\s+\d\.\d{3}/);
    expect(frame).toMatch(/^Kappa/);
  });
});
