import type { ScenarioResult } from '@parley/core';
import { createRedactor } from '@parley/redaction';
import { describe, expect, it } from 'vitest';
import { buildReport, renderReportJson } from './build-report.js';
import { renderJunit } from './junit.js';
import { renderSummaryMarkdown } from './summary-markdown.js';
import { runInfo } from './test-support/sample-run.js';

/** A failing scenario whose conversation, reasons, details and error carry personal data. */
function leakyResult(overrides: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    scenario_id: 'spa_pii',
    agent: 'booking',
    gate: 'blocking',
    tags: [],
    metadata_only: false,
    status: 'fail',
    reason: 'content_signals: forbidden "0722 118 904" found',
    metrics: [
      {
        metric: 'content_signals',
        version: '1.0.0',
        score: null,
        threshold: null,
        passed: false,
        reason: 'forbidden "0722 118 904" found in turn 1 ("Sawa Grace Achieng")',
        details: { found: ['0722 118 904'], message_index: 1, calls: [{ name: 'create_booking', args: { phone: '254722118904' } }] },
      },
    ],
    transcript: {
      ended_by: 'script',
      turns: [
        { role: 'user', turn: 1, content: "It's Grace Achieng, 0722 118 904, grace@example.co.ke" },
        { role: 'assistant', turn: 1, content: '', tool_calls: [{ id: 'c1', name: 'create_booking', args: { customer_name: 'Grace Achieng', phone: '254722118904' } }] },
        { role: 'tool', turn: 1, content: '{"booking_id":"BK-1057","deposit":"KES 150000"}', tool_name: 'create_booking' },
        { role: 'assistant', turn: 1, content: 'Sawa Grace Achieng, 0722 118 904 imehifadhiwa. BK-1057, KES 150000.', latency_ms: 812 },
      ],
    },
    error: { kind: 'agent', message: 'agent printed 0722 118 904', details: 'stderr: Authorization: Bearer sk-live-0123456789abcdef' },
    cost: { input_tokens: 10, output_tokens: 5, usd: 0.0001, calls: 1 },
    ...overrides,
  };
}

const PERSONAL = [/118 904/, /118904/, /Grace/, /Achieng/, /grace@example/, /sk-live-0123456789abcdef/];

describe('reports pass conversation content through the redactor', () => {
  it('masks the transcript, reasons, details and errors in report.json, junit.xml and summary.md, keeping money and ids', () => {
    const report = buildReport(runInfo, [leakyResult()], { redactor: createRedactor({ names: ['Grace Achieng'] }) });
    for (const [name, text] of [
      ['report.json', renderReportJson(report)],
      ['junit.xml', renderJunit(report)],
      ['summary.md', renderSummaryMarkdown(report)],
    ] as const) {
      for (const pattern of PERSONAL) expect(text, `${name} ${pattern}`).not.toMatch(pattern);
    }
    const result = report.results[0]!;
    expect(result.transcript?.turns[3]?.content).toBe('Sawa <name>, 07** *** 904 imehifadhiwa. BK-1057, KES 150000.');
    expect(result.transcript?.turns[1]?.tool_calls?.[0]?.args).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(result.transcript?.turns[3]?.latency_ms).toBe(812);
    expect(result.status).toBe('fail');
  });

  it('uses the floor when no redactor is given, and a second build of a built report changes nothing', () => {
    const report = buildReport(runInfo, [leakyResult()]);
    expect(renderReportJson(report)).not.toMatch(/118 904|sk-live/);
    const rebuilt = buildReport(runInfo, report.results.map(({ attempts: _attempts, ...result }): ScenarioResult => result));
    expect(rebuilt.results[0]?.transcript).toEqual(report.results[0]?.transcript);
    expect(rebuilt.results[0]?.metrics).toEqual(report.results[0]?.metrics);
  });

  it('masks the names the conversation reveals in the judges\' reasons and details too, with no identities file', () => {
    const judged = leakyResult({
      status: 'pass',
      reason: '1 expectation passed',
      error: undefined,
      metrics: [
        {
          metric: 'conversation_judge',
          version: '1.0.0',
          score: 0.85,
          threshold: 0.7,
          passed: true,
          reason: 'conversation_judge 0.85 ≥ 0.7 — Good Afrikaans for Pieter van der Merwe; Thandiwe Mthembu is greeted.',
          details: { message_scores: [{ message_index: 1, score: 85, reason: 'Greets Thandiwe warmly; Mthembu is spelt right.' }], overall_feedback: 'Pieter is addressed formally.' },
        },
      ],
      transcript: {
        ended_by: 'script',
        turns: [
          { role: 'user', turn: 1, content: 'Sawubona! NginguThandiwe Mthembu, ngifuna ukubhukha.' },
          { role: 'user', turn: 1, content: 'My naam is Pieter van der Merwe.' },
          { role: 'assistant', turn: 1, content: 'Sawubona Thandiwe! Baie dankie Pieter.' },
        ],
      },
    });
    const report = buildReport(runInfo, [judged], { redactor: createRedactor() });
    const json = renderReportJson(report);
    expect(json).not.toMatch(/Thandiwe|Mthembu|Pieter|Merwe/);
    expect(report.results[0]?.metrics[0]?.reason).toBe('conversation_judge 0.85 ≥ 0.7 — Good Afrikaans for <name>; <name> is greeted.');
  });
});
