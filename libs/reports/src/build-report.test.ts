import type { CallSummary, ScenarioResult } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '@parley/redaction';
import { buildReport, buildReportOfReported, renderReportJson, reportedResult } from './build-report.js';
import { redactResultContent } from './redact-results.js';
import { SECRET_PHRASE, runInfo, sampleResults } from './test-support/sample-run.js';
import { WITHHELD } from './withhold-content.js';

describe('buildReport', () => {
  const report = buildReport(runInfo, sampleResults());

  it('sorts results by scenario id', () => {
    const ids = report.results.map((result) => result.scenario_id);
    expect(ids).toEqual([...ids].sort());
    expect(ids[0]).toBe('budget_stop');
  });

  it('takes status, exit code and counts from the gate', () => {
    expect(report.status).toBe('error');
    expect(report.exit_code).toBe(1);
    expect(report.counts).toEqual({ pass: 1, fail: 3, warn: 1, flaky: 1, error: 2, skipped: 1 });
  });

  it('gives exit 0 when only advisory scenarios fail, and 130 when interrupted', () => {
    const results = sampleResults().filter((result) => result.gate === 'advisory' || result.status === 'pass');
    expect(buildReport(runInfo, results).exit_code).toBe(0);
    expect(buildReport(runInfo, results).status).toBe('pass');
    expect(buildReport({ ...runInfo, interrupted: true }, results).exit_code).toBe(130);
  });

  it('is interrupted, never pass, when Ctrl-C (130) or SIGTERM (143) stopped the run, and says how far it got', () => {
    const results = sampleResults().filter((result) => result.status === 'pass');
    const byCtrlC = buildReport({ ...runInfo, interrupted: true, planned: 9 }, results);
    expect(byCtrlC).toMatchObject({ status: 'interrupted', exit_code: 130 });
    expect(byCtrlC.interruption).toEqual({ signal: 'SIGINT', ran: results.length, planned: 9, resume: `parley run --resume ${runInfo.run_id}` });
    const bySigterm = buildReport({ ...runInfo, interrupted: 'SIGTERM', planned: 9 }, results);
    expect(bySigterm).toMatchObject({ status: 'interrupted', exit_code: 143, interruption: { signal: 'SIGTERM' } });
    expect(buildReport(runInfo, results).interruption).toBeUndefined();
  });

  it('turns warn and flaky into exit 1 under strict', () => {
    const results = sampleResults().filter((result) => ['warn', 'flaky', 'pass'].includes(result.status));
    expect(buildReport(runInfo, results).exit_code).toBe(0);
    expect(buildReport({ ...runInfo, strict: true }, results).exit_code).toBe(1);
  });

  it('sums the cost over scenarios, and unknown prices stay unknown', () => {
    expect(report.cost).toEqual({ input_tokens: 800, output_tokens: 400, usd: expect.closeTo(0.008, 10), calls: 16 });
    expect(report.cost_usd).toBe(report.cost.usd);
    const unpriced = sampleResults().map((result, index): ScenarioResult =>
      index === 0 ? { ...result, cost: { ...result.cost, usd: null } } : result,
    );
    expect(buildReport(runInfo, unpriced).cost_usd).toBeNull();
  });

  it('keeps transcripts of ordinary scenarios and never includes sessions', () => {
    const happy = report.results.find((result) => result.scenario_id === 'spa_happy');
    expect(happy?.transcript?.turns).toHaveLength(4);
    expect(happy).toMatchObject({ title: 'Customer books a massage', language: 'sw' });
    const json = renderReportJson(report);
    expect(json).not.toContain('session');
    expect(json).not.toContain('conv-spa_happy');
    expect(json).not.toContain('test_tenant_');
  });

  it('withholds every piece of content of metadata_only scenarios', () => {
    const disclosure = report.results.find((result) => result.scenario_id === 'gbv_disclosure');
    expect(disclosure?.transcript).toBeUndefined();
    expect(disclosure?.reason).toBe(`content_signals: ${WITHHELD}`);
    expect(disclosure?.title).toBe('Caller discloses abuse');
    expect(disclosure?.metrics).toEqual([
      { metric: 'content_signals', version: '1.0.0', score: 0, threshold: 0.8, passed: false, reason: WITHHELD, details: { matched: 0, warn: false } },
      { metric: 'conversation_judge', version: '1.0.0', score: 0.75, threshold: 0.8, passed: true, reason: WITHHELD, details: { mean: 75 } },
    ]);
    const miss = report.results.find((result) => result.scenario_id === 'gbv_replay_miss');
    expect(miss?.reason).toBe(`recording_miss: ${WITHHELD}`);
    expect(miss?.error).toEqual({ kind: 'recording_miss', message: WITHHELD });
    expect(renderReportJson(report)).not.toContain(SECRET_PHRASE);
  });

  it('is deterministic: same inputs, byte-identical JSON, whatever the input order', () => {
    const first = renderReportJson(buildReport(runInfo, sampleResults()));
    const second = renderReportJson(buildReport(runInfo, sampleResults().reverse()));
    expect(second).toBe(first);
    expect(first.endsWith('}\n')).toBe(true);
    expect(first.split('\n')[1]).toBe('  "schema_version": 1,');
  });

  it('does not share objects with its input', () => {
    const results = sampleResults();
    const built = buildReport(runInfo, results);
    const happy = results.find((result) => result.scenario_id === 'spa_happy');
    happy?.transcript?.turns.push({ role: 'user', content: 'late edit', turn: 9 });
    expect(renderReportJson(built)).not.toContain('late edit');
  });

  it('fills nulls for unknown git sha and fingerprint', () => {
    const { git_sha: _sha, config_fingerprint: _fingerprint, ...rest } = runInfo;
    const built = buildReport(rest, []);
    expect(built).toMatchObject({ git_sha: null, config_fingerprint: null, status: 'skipped', exit_code: 0, results: [] });
  });
});

describe('reportJsonChunks', () => {
  it('writes exactly JSON.stringify(report, null, 2), piece by piece', async () => {
    const { reportJsonChunks } = await import('./build-report.js');
    const full = buildReport(runInfo, sampleResults());
    expect([...reportJsonChunks(full)].join('')).toBe(`${JSON.stringify(full, null, 2)}\n`);
    const empty = buildReport(runInfo, []);
    expect([...reportJsonChunks(empty)].join('')).toBe(`${JSON.stringify(empty, null, 2)}\n`);
    expect([...reportJsonChunks(full)].length).toBe(full.results.length + 4); // head, [, results, ], tail
  });
});

describe('buildReport of results the run already redacted', () => {
  it('gives the same report.json as redacting here, and does not redact them a second time', () => {
    const redactor = createRedactor({ names: ['Wanjiku'] });
    const results = sampleResults().map((result) => (result.metadata_only ? result : { ...result, reason: `${result.reason}; call 0722 118 904` }));
    const here = renderReportJson(buildReport(runInfo, results, { redactor }));
    const redacted = results.map((result) => redactResultContent(result, redactor));
    expect(renderReportJson(buildReport(runInfo, redacted, { redactor, alreadyRedacted: true }))).toBe(here);
    // Trusted as redacted: text handed over as it is stays as it is (the run promises the redaction).
    const raw = renderReportJson(buildReport(runInfo, results, { redactor, alreadyRedacted: true }));
    expect(here).toContain('call 07** *** 904');
    expect(here).not.toContain('0722 118 904');
    expect(raw).toContain('0722 118 904');
    expect(raw).not.toContain(SECRET_PHRASE); // metadata_only content is withheld all the same
  });

  it('holds their content once: transcripts, metric details and calls are the results\' own, not copies', () => {
    const redactor = createRedactor({ names: ['Wanjiku'] });
    const calls: CallSummary[] = [{ role: 'agent', provider: 'openai', model: 'gpt-4o-mini', turn: 1, input_tokens: 10, output_tokens: 5, cost_usd: 0.0001, latency_ms: 40 }];
    const redacted = sampleResults()
      .filter((result) => !result.metadata_only)
      .map((result) => redactResultContent({ ...result, calls: structuredClone(calls) }, redactor));
    const report = buildReport(runInfo, redacted, { redactor, alreadyRedacted: true });
    const byId = new Map(report.results.map((result) => [result.scenario_id, result]));
    const detailed = redacted.flatMap((result) => result.metrics.filter((metric) => metric.details !== undefined).map((metric) => [result.scenario_id, metric] as const));
    expect(detailed.length).toBeGreaterThan(0);
    for (const [id, metric] of detailed) {
      expect(byId.get(id)?.metrics.find((reported) => reported.metric === metric.metric)?.details).toBe(metric.details);
    }
    for (const result of redacted) {
      expect(byId.get(result.scenario_id)?.calls).toBe(result.calls);
      if (result.transcript !== undefined) expect(byId.get(result.scenario_id)?.transcript).toBe(result.transcript);
    }
    // Results handed over unredacted are redacted into copies the report keeps: nothing is shared with the caller's.
    const own: ScenarioResult[] = sampleResults().map((result) => ({ ...result, calls: structuredClone(calls) }));
    const copied = buildReport(runInfo, own, { redactor });
    for (const result of copied.results) {
      const input = own.find((candidate) => candidate.scenario_id === result.scenario_id)!;
      expect(result.calls).not.toBe(input.calls);
      for (const metric of result.metrics) expect(metric.details === undefined || input.metrics.every((other) => other.details !== metric.details)).toBe(true);
    }
  });
});

describe('buildReportOfReported: results put in the report\'s form as they finished', () => {
  const redactor = createRedactor({ names: ['Wanjiku'] });
  const calls: CallSummary[] = [{ role: 'agent', provider: 'openai', model: 'gpt-4o-mini', turn: 1, input_tokens: 10, output_tokens: 5, cost_usd: 0.0001, latency_ms: 40 }];
  const redacted = sampleResults().map((result) => redactResultContent({ ...result, calls: structuredClone(calls) }, redactor));
  const files = new Map(redacted.map((result) => [result.scenario_id, `scenarios/${result.scenario_id}.yaml`]));
  const marked = {
    ...runInfo,
    flaky_marks: [{ scenario_id: redacted.find((result) => !result.metadata_only)!.scenario_id, run_id: 'run-0', marked_at: '2026-01-01T00:00:00.000Z', note: 'Wanjiku saw it flake' }],
  };

  it('gives the report buildReport gives, byte for byte, in any order they finished', () => {
    const expected = renderReportJson(buildReport(marked, redacted, { redactor, alreadyRedacted: true, files }));
    const reported = [...redacted].reverse().map((result) => reportedResult(result, files.get(result.scenario_id)));
    expect(renderReportJson(buildReportOfReported(marked, reported, redactor))).toBe(expected);
    expect(expected).toContain('saw it flake"');
    expect(expected).not.toContain('Wanjiku');
  });

  it('holds each result\'s transcript, metric details and calls once: the report\'s are the redacted result\'s own', () => {
    const report = buildReportOfReported(runInfo, redacted.map((result) => reportedResult(result)), redactor);
    for (const result of redacted.filter((candidate) => !candidate.metadata_only)) {
      const inReport = report.results.find((candidate) => candidate.scenario_id === result.scenario_id)!;
      expect(inReport.calls).toBe(result.calls);
      if (result.transcript !== undefined) expect(inReport.transcript).toBe(result.transcript);
      for (const metric of result.metrics.filter((candidate) => candidate.details !== undefined)) {
        expect(inReport.metrics.find((candidate) => candidate.metric === metric.metric)?.details).toBe(metric.details);
      }
    }
  });
});
