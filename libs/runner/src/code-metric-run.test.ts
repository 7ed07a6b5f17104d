import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSuite } from '@parley/config';
import type { Transcript } from '@parley/core';
import { messageJudgements } from '@parley/reports';
import { evaluateCodeMetric } from './code-metric-run.js';
import { metricParamSchemas } from './metric-catalog.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-code-metric-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TRANSCRIPT: Transcript = {
  turns: [
    { role: 'user', content: 'Book a blow-dry at 3 pm', turn: 1 },
    { role: 'assistant', content: '', turn: 1, tool_calls: [{ id: 'call_1', name: 'create_booking', args: { time: '15:00' } }] },
    { role: 'tool', content: '{"booking_id":"BK-1057"}', turn: 1, tool_name: 'create_booking', tool_mocked: true },
    { role: 'assistant', content: 'Booked: BK-1057', turn: 1, state: 'booked' },
  ],
  ended_by: 'script',
};

function suiteWith(metricSource: string) {
  mkdirSync(join(dir, 'metrics'), { recursive: true });
  mkdirSync(join(dir, 'scenarios'), { recursive: true });
  writeFileSync(join(dir, 'parley.yaml'), 'suite: s\nagents:\n  desk: { kind: openai, model: gpt-4.1-mini }\n');
  writeFileSync(join(dir, 'metrics', 'reference.yaml'), 'name: reference\nversion: 2.1.0\nkind: module\nmodule: metrics/reference.mjs\n');
  writeFileSync(join(dir, 'metrics', 'reference.mjs'), metricSource);
  writeFileSync(join(dir, 'scenarios', 'booking.yaml'), 'id: booking\nagent: desk\nuser: { opening: "Hi" }\nexpect:\n  - { metric: reference, threshold: 0.9, params: { prefix: BK- } }\n');
  const suite = loadSuite(dir, { metricParams: metricParamSchemas() });
  return { suite, metric: suite.codeMetrics[0]!, scenario: suite.scenarios[0]! };
}

describe('evaluateCodeMetric', () => {
  it('gives the metric the scenario, transcript, tool calls with their results, final state and params; keeps its per-message answer as judges keep theirs', async () => {
    const { suite, metric, scenario } = suiteWith(`export default { evaluate(input) {
      const call = input.tool_calls[0];
      return { score: 0.95, passed: true, reason: [input.metric.name, input.metric.version, input.scenario.id, call.name, call.message_index, call.result, input.final_state, input.params.prefix, input.transcript.ended_by].join(' '),
        messages: [{ index: 3, score: 1, reason: 'names the booking' }, { index: 1, score: 0.5, reason: 'books' }] };
    } };\n`);
    const result = await evaluateCodeMetric(metric, scenario.expectations[0]!, scenario, TRANSCRIPT, { suite, env: process.env });
    expect(result).toEqual({
      metric: 'reference',
      version: '2.1.0',
      score: 0.95,
      threshold: 0.9,
      passed: true,
      reason: 'reference 2.1.0 booking create_booking 1 {"booking_id":"BK-1057"} booked BK- script',
      details: {
        kind: 'module',
        scale: { min: 0, max: 1 },
        message_scores: [
          { message_index: 1, score: 0.5, reason: 'books' },
          { message_index: 3, score: 1, reason: 'names the booking' },
        ],
      },
    });
    // The console, the TUI and the HTML report read per-message results through messageJudgements.
    expect(messageJudgements([result]).get(3)).toEqual([{ metric: 'reference', score: 1, scale: { min: 0, max: 1 }, reason: 'names the booking' }]);
  });

  it('a passing answer under the expectation’s threshold fails, saying so; an error is a result, not a throw', async () => {
    const low = suiteWith(`export default { evaluate() { return { score: 0.5, passed: true, reason: 'half the references' }; } };\n`);
    expect(await evaluateCodeMetric(low.metric, low.scenario.expectations[0]!, low.scenario, TRANSCRIPT, { suite: low.suite, env: process.env })).toMatchObject({
      passed: false,
      score: 0.5,
      reason: 'half the references (score 0.5 is below the threshold 0.9)',
    });
    const throwing = suiteWith(`export default { evaluate() { throw new Error('catalogue down'); } };\n`);
    const failed = await evaluateCodeMetric(throwing.metric, throwing.scenario.expectations[0]!, throwing.scenario, TRANSCRIPT, { suite: throwing.suite, env: process.env });
    expect(failed).toMatchObject({ metric: 'reference', version: '2.1.0', score: null, threshold: 0.9, passed: false, error: true, reason: 'module reference.mjs threw: catalogue down' });
    expect(String((failed.details as { output: string }).output)).toContain('reference.mjs');
  });
});
