import { describe, expect, it } from 'vitest';
import type { MetricResult, ScenarioResult } from '@parley/core';
import { makeTheme } from '../../theme.js';
import { beforeAfterLines } from './before-after-lines.js';

const metric = (name: string, passed: boolean, score: number | null = null): MetricResult => ({ metric: name, version: '1', score, threshold: null, passed, reason: '' });
const result = (status: ScenarioResult['status'], metrics: MetricResult[], reason: string): ScenarioResult => ({
  scenario_id: 's1',
  agent: 'booking',
  gate: 'blocking',
  tags: [],
  metadata_only: false,
  status,
  reason,
  metrics,
  cost: { input_tokens: 1, output_tokens: 1, usd: 0.04, calls: 1 },
});
const text = (lines: ReturnType<typeof beforeAfterLines>) => lines.map((line) => line.map((segment) => segment.text).join(''));

describe('beforeAfterLines', () => {
  it('puts the two results side by side, metrics that failed on either side first, a change marked', () => {
    const before = result('fail', [metric('max_turns', true), metric('content_signals', false), metric('a_very_long_metric_name_here', true, 0.9)], 'content_signals: required "Karibu" missing from the assistant messages');
    const after = result('pass', [metric('max_turns', true), metric('content_signals', true), metric('a_very_long_metric_name_here', true, 0.95)], '3 expectations passed');
    const lines = text(beforeAfterLines({ runId: 'old', how: 'live', result: before }, { runId: 'new', how: 'live · 3 attempts', result: after }, 80, makeTheme(false)));
    expect(lines[0]).toMatch(/^\s+before\s+after \(re-run\)/);
    expect(lines).toContainEqual(expect.stringMatching(/^status\s+✗ FAIL\s+✓ pass/));
    expect(lines).toContainEqual(expect.stringMatching(/^mode\s+live\s+live · 3 attempts/));
    const metricRows = lines.slice(lines.findIndex((line) => line.startsWith('metric')) + 1);
    expect(metricRows[0]).toMatch(/^content_signals\s+FAIL\s+-\s+PASS\s+-\s+changed/);
    expect(metricRows[1]).toMatch(/^max_turns\s+PASS/);
    // A long name is cut with a gap before the first column.
    expect(metricRows[2]).toMatch(/^a_very_long_met… PASS\s+0\.9\s+PASS\s+0\.95\s*$/);
    expect(lines.find((line) => line.startsWith('reason'))).toMatch(/content_signals: required\s+3 expectations passed/);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(80);
  });
});
