import { describe, expect, it } from 'vitest';
import type { RunRow } from '@parley/store';
import { formatMetricScore, formatRunDetail, formatRunList } from './runs-table.js';
// The store's fixtures are test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { errorResult, failingResult, newRun, passingResult, runFinish } from '../../../../libs/store/src/test-support/fixtures.js';

// A run of the whole suite (the fixture's options select a tag, which makes a partial run).
const finishedRun: RunRow = { ...newRun({ options: { mode: 'replay', concurrency: 4 } }), ...runFinish(), scenario_count: 3, finished: true };
const unfinishedRun: RunRow = {
  ...newRun({ id: 'run-2026-11-27-ffffff', mode: 'live', started_at: '2026-11-27T07:30:00.000Z', git_sha: null, options: { mode: 'live' } }),
  scenario_count: 1,
  finished: false,
};

describe('formatRunList', () => {
  it('renders one line per run in the given order, without colour codes', () => {
    expect(formatRunList([unfinishedRun, finishedRun])).toBe(
      [
        'RUN                    SUITE           MODE    STATUS      SCENARIOS  PASS/FAIL/ERROR  COST   STARTED           DURATION',
        'run-2026-11-27-ffffff  ratiba_booking  live    unfinished  1          -                -      2026-11-27 07:30  -',
        'run-2026-11-26-a1b2c3  ratiba_booking  replay  fail        3          1/1/1            $0.01  2026-11-26 12:00  1 m 03 s',
      ].join('\n'),
    );
  });

  it('fits a terminal by giving up the columns a person misses least, narrowest head first', () => {
    const interrupted: RunRow = { ...finishedRun, id: '20261126-134951-e4e9f9', status: 'interrupted', suite: 'municipal_services_multilingual' };
    const runs = [unfinishedRun, finishedRun, interrupted];
    const whole = formatRunList(runs);
    expect(Math.max(...whole.split('\n').map((line) => line.length))).toBeGreaterThan(100);
    expect(formatRunList(runs, { width: 200 })).toBe(whole);

    const at80 = formatRunList(runs, { width: 79 }).split('\n');
    for (const line of at80) expect(line.length).toBeLessThanOrEqual(79);
    expect(at80[0]).toMatch(/^RUN +SUITE +STATUS +P\/F\/E +COST/);
    expect(at80[0]).not.toMatch(/SCENARIOS|DURATION|MODE/);
    expect(at80[3]).toMatch(/^20261126-134951-e4e9f9 +municipal_services_multilin… +interrupted +1\/1\/1 +\$0\.01$/);

    const at60 = formatRunList(runs, { width: 60 }).split('\n');
    for (const line of at60) expect(line.length).toBeLessThanOrEqual(60);
    expect(at60[0]).toMatch(/^RUN +SUITE +STATUS +P\/F\/E$/);
    expect(at60[3]).toMatch(/ municipal_servi… +interrupted +1\/1\/1$/);
  });

  it('marks a run of part of the suite (a --scenario or --tag selection) as partial, and runs show names the selection', () => {
    const partial: RunRow = { ...finishedRun, options: { suite: '.', scenario: ['spa_*'], tag: ['sw'] } };
    expect(formatRunList([partial]).split('\n')[1]).toMatch(/ fail\s+3 \(partial\)\s+1\/1\/1 /);
    expect(formatRunList([finishedRun]).split('\n')[1]).not.toContain('partial');
    expect(formatRunDetail(partial, [passingResult()])).toContain('Selection  --scenario spa_* --tag sw (a partial run: its counts are of these scenarios only)');
    expect(formatRunDetail(finishedRun, [passingResult()])).not.toContain('Selection');
  });

  it('says so when there are no runs', () => {
    expect(formatRunList([])).toBe('No runs stored yet.');
  });

  it('shows an unknown cost as unknown, not as $0', () => {
    const unpriced: RunRow = { ...finishedRun, cost: { input_tokens: 1, output_tokens: 1, usd: null, calls: 1 } };
    expect(formatRunList([unpriced]).split('\n')[1]).toContain(' unknown ');
  });
});

describe('formatRunDetail', () => {
  it('renders the header and one line per scenario with status, reason and metric scores', () => {
    expect(formatRunDetail(finishedRun, [failingResult(), errorResult(), passingResult()])).toBe(
      [
        'Run        run-2026-11-26-a1b2c3',
        'Suite      ratiba_booking',
        'Mode       replay',
        'Status     fail (exit 1)',
        'Started    2026-11-26T12:00:00.000Z',
        'Finished   2026-11-26T12:01:03.000Z',
        'Duration   1 m 03 s',
        'Scenarios  3 (pass 1, fail 1, error 1)',
        'Cost       $0.01 (2436 input + 192 output tokens, 3 calls)',
        'Git        abc1234',
        'Config     sha256:feed',
        'Parley     0.1.0',
        'Output     .parley/runs/run-2026-11-26-a1b2c3',
        '',
        'SCENARIO                   STATUS            REASON                                 METRICS',
        'physio_cancel_sheng        fail              conversation_judge 0.62 is below 0.70  conversation_judge 0.62 ✗, booking_slot_consistency error, conversation_judge 0.80',
        'refund_request_english     error (advisory)  recording miss at turn 2 (agent)',
        'spa_booking_swahili_happy  pass              all expectations met                   content_signals pass, conversation_judge 0.91',
      ].join('\n'),
    );
  });

  it('fits a terminal by cutting reasons to what is left and wrapping the metric scores under each scenario', () => {
    const results = [failingResult(), errorResult(), passingResult()];
    const lines = formatRunDetail(finishedRun, results, { width: 79 }).split('\n\n')[1]?.split('\n') ?? [];
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(79);
    expect(lines).toEqual([
      'SCENARIO                   STATUS            REASON',
      'physio_cancel_sheng        fail              conversation_judge 0.62 is below…',
      '  conversation_judge 0.62 ✗, booking_slot_consistency error,',
      '  conversation_judge 0.80',
      'refund_request_english     error (advisory)  recording miss at turn 2 (agent)',
      'spa_booking_swahili_happy  pass              all expectations met',
      '  content_signals pass, conversation_judge 0.91',
    ]);
    expect(formatRunDetail(finishedRun, results, { width: 200 })).toBe(formatRunDetail(finishedRun, results));
    const fingerprint = `sha256:${'74b3559'.repeat(9).slice(0, 64)}`;
    const fingerprinted: RunRow = { ...finishedRun, config_fingerprint: fingerprint };
    expect(formatRunDetail(fingerprinted, [], { width: 79 })).toContain('\nConfig     sha256:74b355974b35…\n');
    expect(formatRunDetail(fingerprinted, [])).toContain(`\nConfig     ${fingerprint}\n`);
  });

  it('shows an unfinished run without results', () => {
    const text = formatRunDetail(unfinishedRun, []);
    expect(text).toContain('Status     unfinished\n');
    expect(text).toContain('Duration   -\n');
    expect(text).toContain('Git        -\n');
    expect(text.endsWith('\n\nNo scenario results stored.')).toBe(true);
  });

  it('shows an interrupted run as interrupted, with how many of its scenarios ran and the command that finishes it', () => {
    const interrupted: RunRow = {
      ...newRun({ options: { suite: '.', planned: 6 } }),
      ...runFinish({ status: 'interrupted', exit_code: 143 }),
      scenario_count: 2,
      finished: true,
    };
    const text = formatRunDetail(interrupted, []);
    expect(text).toContain('Status     interrupted (exit 143) · 2 of 6 ran\n');
    expect(text).toContain(`Resume     parley run --resume ${interrupted.id}\n`);
    expect(formatRunList([interrupted]).split('\n')[1]).toMatch(/ replay +interrupted +2 /);
    expect(formatRunDetail(finishedRun, [])).not.toContain('Resume');
  });

  it('keeps each scenario on one line, cutting long and multi-line reasons', () => {
    const long = { ...errorResult(), reason: `recording miss: ${'x'.repeat(100)}\n- "temperature": 0.7` };
    const lines = formatRunDetail(finishedRun, [long], { reasonLength: 30 }).split('\n');
    expect(lines.at(-1)).toContain(`recording miss: ${'x'.repeat(13)}…`);
    expect(lines.some((line) => line.includes('temperature'))).toBe(false);
  });
});

describe('formatMetricScore', () => {
  it('shows scores with two decimals, verdicts for pass/fail metrics and errors as errors', () => {
    const base = { metric: 'm', version: '1', threshold: 0.5, reason: '' };
    expect(formatMetricScore({ ...base, score: 0.456, passed: false })).toBe('m 0.46 ✗');
    expect(formatMetricScore({ ...base, score: 1, passed: true })).toBe('m 1.00');
    expect(formatMetricScore({ ...base, score: null, passed: false })).toBe('m fail');
    expect(formatMetricScore({ ...base, score: null, passed: true })).toBe('m pass');
    expect(formatMetricScore({ ...base, score: 0.9, passed: false, error: true })).toBe('m error');
  });
});
