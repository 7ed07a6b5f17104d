import { createServer } from 'node:net';
import { isConfigError } from '@parley/core';
import { startFakeLangfuse, type FakeLangfuse } from '@parley/fake-langfuse';
import { floorRedactor } from '@parley/redaction';
import type { RunReport } from '@parley/reports';
import { afterEach, describe, expect, it } from 'vitest';
import { conversationTraces } from './conversation-trace.js';
import { ExportError } from './export-errors.js';
import { conversationTraceId } from './export-ids.js';
import { exportRun } from './export-run.js';
import type { LangfuseTarget } from '@parley/langfuse';
import { conversationSpans } from './otel-spans.js';
import { sendSpans } from './otlp-sender.js';
import { otlpSettings } from './otlp-settings.js';
import { report } from './test-support/run-report.js';

const KEYS = { publicKey: 'pk-lf-export', secretKey: 'sk-lf-export' };
const EMAIL = 'amina.wanjiru@example.com';

let server: FakeLangfuse | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The fixture run, with the customer's e-mail address in the first user message and in a judge's reason. */
function reportWithEmail(): RunReport {
  const run = report(false);
  const result = run.results[0]!;
  result.transcript!.turns[0]!.content = `Nataka massage, niandikie ${EMAIL}`;
  result.metrics[0]!.reason = `warm; confirmed by mail to ${EMAIL}`;
  return run;
}

async function langfuse(): Promise<LangfuseTarget> {
  server = await startFakeLangfuse({ ...KEYS, scores: [] });
  return { baseUrl: server.url, ...KEYS };
}

describe('exportRun to Langfuse', () => {
  it('sends one trace per scenario with a span per call, and one score per metric on it', async () => {
    const target = await langfuse();
    const summary = await exportRun({ report: report(false), destination: { kind: 'langfuse', langfuse: target }, redactor: floorRedactor(), parleyVersion: '0.1.0' });
    expect(summary).toEqual({ traces: 1, spans: 4, scores: 2, destination: `Langfuse at ${server!.url}` });
    const [trace] = server!.traces();
    expect(trace!.traceId).toBe(conversationTraceId('run-1', 'spa_happy'));
    expect(trace!.observations.map((observation) => observation.name).sort()).toEqual(['chat claude-sonnet-4-6', 'chat gpt-4.1-mini', 'chat gpt-4.1-mini', 'invoke_agent booking']);
    expect(server!.scores().map((score) => [score.name, score.value, score.dataType, score.traceId])).toEqual([
      ['conversation_judge', 0.9, 'NUMERIC', trace!.traceId],
      ['content_signals', 0, 'BOOLEAN', trace!.traceId],
    ]);
    // Every request carried the project's keys.
    expect(server!.requests.every((request) => request.authorised)).toBe(true);
  });

  it('sends no score for a metric that could not be evaluated (a 0 would read as the worst score)', async () => {
    const target = await langfuse();
    const run = report(false);
    run.results[0]!.metrics.push({ metric: 'fluency_sw', version: '1.0.0', score: null, threshold: 0.7, passed: false, error: true, reason: 'fluency_sw could not be evaluated' });
    const summary = await exportRun({ report: run, destination: { kind: 'langfuse', langfuse: target }, redactor: floorRedactor(), parleyVersion: '0.1.0' });
    expect(summary.scores).toBe(2);
    expect(server!.scores().map((score) => score.name)).toEqual(['conversation_judge', 'content_signals']);
  });

  it('updates instead of adding when the same run is exported again', async () => {
    const target = await langfuse();
    const input = { report: report(false), destination: { kind: 'langfuse' as const, langfuse: target }, redactor: floorRedactor(), parleyVersion: '0.1.0' };
    await exportRun(input);
    const first = { traces: server!.traces(), scores: server!.scores() };
    await exportRun(input);
    expect(server!.traces()).toEqual(first.traces);
    expect(server!.scores().map((score) => score.id)).toEqual(first.scores.map((score) => score.id));
  });

  it('passes every piece of content through the redactor before it leaves', async () => {
    const target = await langfuse();
    const redactor = floorRedactor();
    await exportRun({ report: reportWithEmail(), destination: { kind: 'langfuse', langfuse: target }, redactor, parleyVersion: '0.1.0' });
    const sent = JSON.stringify([server!.traces(), server!.scores()]);
    expect(redactor.text(EMAIL)).not.toBe(EMAIL);
    expect(sent).not.toContain(EMAIL);
    expect(sent).toContain(redactor.text(EMAIL));
  });

  it('turns refused keys into a configuration error naming what to check, never the keys', async () => {
    const target = await langfuse();
    const error = await exportRun({ report: report(false), destination: { kind: 'langfuse', langfuse: { ...target, secretKey: 'sk-lf-wrong' } }, redactor: floorRedactor(), parleyVersion: '0.1.0' }).catch((caught: unknown) => caught);
    expect(isConfigError(error)).toBe(true);
    expect(String(error)).toContain(`Langfuse at ${server!.url} refused the keys (HTTP 401): check LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY`);
    expect(String(error)).not.toContain('sk-lf-wrong');
    expect(server!.scores()).toEqual([]);
  });
});

describe('exportRun to an OTLP collector', () => {
  it('sends the GenAI conventions with the collector\'s headers, the scores as span events, and nothing Langfuse-only', async () => {
    await langfuse();
    const url = `${server!.url}/api/public/otel/v1/traces`;
    const authorization = `Basic ${Buffer.from(`${KEYS.publicKey}:${KEYS.secretKey}`).toString('base64')}`;
    const otlp = { ...otlpSettings(url, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }), headers: { authorization } };
    const summary = await exportRun({ report: report(false), destination: { kind: 'otlp', otlp }, redactor: floorRedactor(), parleyVersion: '0.1.0' });
    expect(summary).toEqual({ traces: 1, spans: 4, scores: 0, destination: `the OTLP endpoint ${url}` });
    const [trace] = server!.traces();
    const root = trace!.observations.find((observation) => observation.parentSpanId === undefined)!;
    expect(root.events.map((event) => event.attributes['gen_ai.evaluation.name'])).toEqual(['conversation_judge', 'content_signals']);
    const keys = trace!.observations.flatMap((observation) => Object.keys(observation.attributes));
    expect(keys).toContain('gen_ai.request.model');
    expect(keys.filter((key) => key.startsWith('langfuse.'))).toEqual([]);
    expect(server!.scores()).toEqual([]);
  });

  it('names the collector without the credentials of its URL when it fails, and the status it answered', async () => {
    server = await startFakeLangfuse({ ...KEYS, scores: [], faults: [{ path: '/api/public/otel/v1/traces', status: 500, times: 1 }] });
    const withCredentials = server.url.replace('http://', 'http://user:secret@');
    const otlp = otlpSettings(`${withCredentials}/api/public/otel/v1/traces`, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const error = await exportRun({ report: report(false), destination: { kind: 'otlp', otlp }, redactor: floorRedactor(), parleyVersion: '0.1.0' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExportError);
    expect((error as Error).message).toBe(`sending traces to the OTLP endpoint ${server.url}/api/public/otel/v1/traces failed (HTTP 500: fault injected: HTTP 500)`);
  });

  it('fails with an ExportError when nothing listens, once its time is up', async () => {
    // A port that was free a moment ago: every connection is refused, and the sender retries
    // (without waiting here) until its retries run out.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const batch = conversationSpans(conversationTraces(report(false)), { dialect: 'otlp', parleyVersion: '0.1.0' });
    const shown = `the OTLP endpoint http://127.0.0.1:${port}/v1/traces`;
    const target = { url: `http://127.0.0.1:${port}/v1/traces`, protocol: 'http/protobuf' as const, shown, keysHint: 'check the headers', timeoutMs: 500 };
    const error = await sendSpans(batch, target, { sleep: async () => {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExportError);
    expect((error as Error).message).toMatch(new RegExp(`^sending traces to ${shown.replaceAll('.', '\\.')} failed after 4 attempts \\(.+\\)$`));
  });
});
