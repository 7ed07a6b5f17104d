import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@parley/core';
import { buildReport } from '@parley/reports';
import { paint } from './output.js';
import { METRIC_OUTPUT_LINES, renderRunSummary } from './run-summary.js';

function result(id: string, status: ScenarioResult['status'], reason: string, gate: ScenarioResult['gate'] = 'blocking'): ScenarioResult {
  return {
    scenario_id: id,
    agent: 'booking_orchestrator',
    gate,
    tags: [],
    metadata_only: false,
    status,
    reason,
    metrics: status === 'fail' ? [{ metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: false, reason: reason.replace('content_signals: ', '') }] : [],
    cost: { input_tokens: 10, output_tokens: 5, usd: 0.001, calls: 1 },
  };
}

const run = {
  run_id: 'r1',
  suite: 'demo',
  parley_version: '0.1.0',
  mode: 'replay',
  strict: false,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:01.000Z',
  duration_ms: 1000,
} as const;

const report = buildReport(
  run,
  [
    result('spa_booking_swahili_happy_path_long_name', 'pass', '7 expectations passed'),
    result('spa_codeswitch', 'fail', 'content_signals: forbidden "reservation" found in assistant message 3 (turn 3) and more words to wrap'),
    result('advisory_one', 'fail', 'content_signals: required "Karibu" missing', 'advisory'),
  ],
);

describe('renderRunSummary', () => {
  it.each([80, 100, 160])('fits every line into %i columns', (columns) => {
    const text = renderRunSummary(report, paint(false), '.parley/runs/r1', columns);
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(columns);
  });

  it('lists failures first with their failing expectations, then the totals', () => {
    const text = renderRunSummary(report, paint(false), '.parley/runs/r1', 120);
    expect(text.indexOf('spa_codeswitch')).toBeLessThan(text.indexOf('spa_booking_swahili_happy_path_long_name'));
    expect(text).toContain('✗ spa_codeswitch (fail)');
    expect(text).toContain('✗ advisory_one (fail, advisory)');
    expect(text).toContain('content_signals@1.0.0: forbidden "reservation"');
    expect(text).toMatch(/FAIL · 3 scenarios: 1 pass, 2 fail · replay · \$0\.0030 as recorded, \$0 spent · 1\.00 s · exit 1/);
  });

  it('says which model has no price, and what to do, when the cost is unknown', () => {
    const call = { role: 'agent' as const, provider: 'openai', turn: 1, input_tokens: 10, output_tokens: 5, latency_ms: 1 };
    const info = { run_id: 'r2', suite: 'demo', parley_version: '0.1.0', mode: 'live' as const, strict: false, started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:00:01.000Z', duration_ms: 1000 };
    const unpriced = buildReport(info, [
      { ...result('a', 'pass', 'ok'), cost: { input_tokens: 10, output_tokens: 5, usd: null, calls: 1 }, calls: [{ ...call, model: 'mystery-1', cost_usd: null }] },
      { ...result('b', 'pass', 'ok'), calls: [{ ...call, model: 'gpt-4.1-mini', cost_usd: 0.001 }] },
    ]);
    const text = renderRunSummary(unpriced, paint(false), 'out', 200);
    expect(text).toContain('· live · cost unknown (no price for mystery-1: add it under pricing: in parley.yaml) ·');
  });

  it('says that a replay spent nothing, but not of a live run nor of a replay that judged live', () => {
    expect(renderRunSummary(report, paint(false), 'out', 160)).toContain('· replay · $0.0030 as recorded, $0 spent ·');
    const live = renderRunSummary({ ...report, mode: 'live' }, paint(false), 'out', 160);
    expect(live).toContain('· live · $0.0030 ·');
    const judgedLive = { ...report, judge: { mode: 'live' } } as unknown as typeof report;
    expect(renderRunSummary(judgedLive, paint(false), 'out', 160)).toContain('· replay · $0.0030 ·');
  });

  it("shows under a code metric's error the end of what it printed (a Python traceback), whose reason alone says only how it exited", () => {
    const traceback = ['Traceback (most recent call last):', ...Array.from({ length: 20 }, (_, index) => `  frame ${index}`), 'RuntimeError: no booking_id in the tool result'].join('\n');
    const crashed: ScenarioResult = {
      ...result('spa_booking', 'error', 'slot_ok: command "python3 metrics/slot_ok.py" exited with code 1'),
      metrics: [
        { metric: 'slot_ok', version: '1.0.0', score: null, threshold: null, passed: false, error: true, reason: 'command "python3 metrics/slot_ok.py" exited with code 1', details: { kind: 'command', output: `stderr:\n${traceback}` } },
        { metric: 'late', version: '1.0.0', score: null, threshold: null, passed: false, error: true, reason: 'command "python3 late.py" did not answer within 10000 ms', details: { kind: 'command', output: 'stderr: (empty)' } },
        { metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: false, reason: 'required "BK-1042" missing', details: { output: 'not a code metric error' } },
      ],
    };
    const text = renderRunSummary(buildReport(run, [crashed]), paint(false), '.parley/runs/r1', 120);
    const lines = text.split('\n');
    const at = lines.indexOf('    slot_ok@1.0.0: command "python3 metrics/slot_ok.py" exited with code 1');
    expect(at).toBeGreaterThan(-1);
    expect(lines.slice(at + 1, at + 1 + 1 + METRIC_OUTPUT_LINES)).toEqual(['      …', ...traceback.split('\n').slice(-METRIC_OUTPUT_LINES).map((line) => `      ${line}`)]);
    // Nothing printed: no line saying so (report.json keeps "stderr: (empty)").
    expect(lines.slice(at + 2 + METRIC_OUTPUT_LINES, at + 4 + METRIC_OUTPUT_LINES)).toEqual([
      '    late@1.0.0: command "python3 late.py" did not answer within 10000 ms',
      '    content_signals@1.0.0: required "BK-1042" missing',
    ]);
    expect(text).not.toContain('not a code metric error');
  });

  it('never cuts the reports folder: beside reports: when it fits, else on a line of its own', () => {
    const where = '.parley/runs/20261127-233753-934814/{report.json,junit.xml,summary.md,report.html}';
    const narrow = renderRunSummary(report, paint(false), '.parley/runs/20261127-233753-934814', 80).split('\n');
    expect(narrow).toContain(`  ${where}`);
    // Only the folder, which no line of 80 holds, is wider than the terminal.
    for (const line of narrow.filter((text) => !text.includes(where))) expect(line.length, line).toBeLessThanOrEqual(80);
    const wide = renderRunSummary(report, paint(false), '.parley/runs/20261127-233753-934814', 160).split('\n');
    expect(wide.find((line) => line.startsWith('reports:'))).toMatch(`reports: ${where} (in a browser`);
  });

  it('writes no colour codes when colour is off', () => {
    expect(renderRunSummary(report, paint(false), 'x', 100)).not.toMatch(/\u001b\[/);
  });
});

describe('renderRunSummary with variant cases', () => {
  it('cuts a long variant id in the middle to one line, keeping its values, as the TUI does', () => {
    const ids = ['en', 'sw', 'zu'].flatMap((lang) => ['careful', 'rushed'].map((persona) => `book_massage_for_tomorrow_morning[lang=${lang},persona=${persona}]`));
    const variants = buildReport({ ...report, run_id: 'r3' }, [...ids.map((id) => result(id, 'pass', '3 expectations passed')), result('a_plain_scenario_id_that_is_long_enough_to_wrap_here', 'pass', 'ok')]);
    const text = renderRunSummary(variants, paint(false), 'out', 80);
    const rows = text.split('\n').filter((line) => line.startsWith('│ ') && !line.startsWith('│ scenario'));
    const idCells = rows.map((line) => line.split('│')[1]!.trim());
    for (const id of ids) {
      const values = id.slice(id.indexOf('['));
      expect(idCells.filter((cell) => cell.includes('…') && cell.endsWith(values) && id.startsWith(cell.slice(0, cell.indexOf('…')))), id).toHaveLength(1);
    }
    expect(idCells.filter((cell) => cell.startsWith('book'))).toHaveLength(ids.length);
    // A plain id still wraps whole inside its column.
    expect(idCells.join('')).toContain('a_plain_scenario_id');
    expect(idCells.filter((cell) => !cell.startsWith('book')).join('')).toBe('a_plain_scenario_id_that_is_long_enough_to_wrap_here');
  });
});

describe('renderRunSummary on a large run', () => {
  it('shows the problems first and at most MAX_TABLE_ROWS rows, saying how many more there are', async () => {
    const { MAX_TABLE_ROWS } = await import('./run-summary.js');
    const many = buildReport(
      { ...report, run_id: 'r2', strict: false },
      [
        ...Array.from({ length: 100 }, (_, index) => result(`pass_${String(index).padStart(3, '0')}`, 'pass', 'ok')),
        result('zz_broken', 'fail', 'content_signals: required "BK-1" missing'),
      ],
    );
    const text = renderRunSummary(many, paint(false), 'out', 120);
    const rows = text.split('\n').filter((line) => line.startsWith('│ ') && !line.startsWith('│ scenario'));
    expect(rows).toHaveLength(MAX_TABLE_ROWS);
    expect(rows[0]).toContain('zz_broken');
    expect(text).toContain(`… and ${101 - MAX_TABLE_ROWS} more scenarios (${101 - MAX_TABLE_ROWS} pass): see report.json`);
  });
});
