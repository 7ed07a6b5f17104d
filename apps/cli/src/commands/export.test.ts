import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startFakeLangfuse, type FakeLangfuse } from '@parley/fake-langfuse';
import { afterEach, describe, expect, it } from 'vitest';
import { copyExample } from '../test-support/example-copy.js';
import { parleyAsync } from '../test-support/parley-process.js';
import { silentServer } from '../test-support/silent-server.js';

const KEYS = { LANGFUSE_PUBLIC_KEY: 'pk-lf-export-test', LANGFUSE_SECRET_KEY: 'sk-lf-export-test' };

let langfuse: FakeLangfuse | undefined;
afterEach(async () => {
  await langfuse?.close();
  langfuse = undefined;
});

async function fakeLangfuse(): Promise<FakeLangfuse> {
  langfuse = await startFakeLangfuse({ publicKey: KEYS.LANGFUSE_PUBLIC_KEY, secretKey: KEYS.LANGFUSE_SECRET_KEY, scores: [] });
  return langfuse;
}

/** Runs an example suite in replay and returns the run id and its report. */
async function replayRun(work: string, suite: string) {
  const run = await parleyAsync(['run', suite, '--out', 'report'], { cwd: work });
  expect(run.status, run.stderr).toBeLessThan(2);
  const report = JSON.parse(readFileSync(join(work, 'report', 'report.json'), 'utf8')) as {
    run_id: string;
    results: Array<{ scenario_id: string; metadata_only: boolean; metrics: unknown[]; calls?: Array<{ role: string }> }>;
  };
  return report;
}

describe('parley export --to langfuse (the binary, against fake-langfuse)', () => {
  it('sends the booking run as 8 traces with one score per metric, and a second export adds nothing', async () => {
    const work = copyExample('booking');
    const report = await replayRun(work, '.');
    const server = await fakeLangfuse();
    const env = { ...KEYS, LANGFUSE_HOST: server.url };

    const first = await parleyAsync(['export', report.run_id, '--to', 'langfuse'], { cwd: work, env });
    expect(first.status, first.stderr).toBe(0);
    const metricCount = report.results.reduce((total, result) => total + result.metrics.length, 0);
    const callCount = report.results.reduce((total, result) => total + (result.calls?.length ?? 0), 0);
    expect(first.stdout).toBe(`exported run ${report.run_id}: 8 traces (${8 + callCount} spans) and ${metricCount} scores to Langfuse at ${server.url}\n`);

    const traces = server.traces();
    expect(traces.map((trace) => trace.name).sort()).toEqual(report.results.map((result) => result.scenario_id).sort());
    expect(server.scores()).toHaveLength(metricCount);
    // Every score belongs to one of the traces.
    const traceIds = new Set(traces.map((trace) => trace.traceId));
    expect(server.scores().every((score) => score.traceId !== undefined && traceIds.has(score.traceId))).toBe(true);

    // A trace carries the run's metadata, and its calls as generations with model, tokens and role.
    const happy = traces.find((trace) => trace.name === 'spa_booking_swahili_happy')!;
    const root = happy.observations.find((observation) => observation.parentSpanId === undefined)!;
    expect(root.attributes).toMatchObject({
      'langfuse.trace.metadata.suite': 'ratiba_booking',
      'langfuse.trace.metadata.scenario_id': 'spa_booking_swahili_happy',
      'langfuse.trace.metadata.agent': 'booking',
      'langfuse.trace.metadata.run_id': report.run_id,
      'langfuse.session.id': report.run_id,
    });
    expect(String(root.attributes['langfuse.trace.metadata.tenant'])).toMatch(/^test_tenant_spa_booking_swahili_happy_[0-9a-f]{8}$/);
    expect(String(root.attributes['langfuse.trace.metadata.prompt_version'])).toMatch(/^booking@none-dirty\.[0-9a-f]{8}$/);
    const roles = happy.observations.filter((observation) => observation.parentSpanId === root.spanId).map((observation) => observation.attributes['parley.call.role']);
    expect(roles).toContain('agent');
    expect(roles).toContain('judge');
    const generation = happy.observations.find((observation) => observation.attributes['parley.call.role'] === 'agent')!;
    expect(generation.attributes).toMatchObject({ 'langfuse.observation.type': 'generation', 'gen_ai.operation.name': 'chat' });
    expect(generation.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(typeof generation.attributes['langfuse.observation.output']).toBe('string');

    const requestsAfterFirst = server.requests.length;
    const second = await parleyAsync(['export', report.run_id.slice(0, 15), '--to', 'langfuse'], { cwd: work, env });
    expect(second.status, second.stderr).toBe(0);
    expect(server.requests.length).toBeGreaterThan(requestsAfterFirst);
    expect(server.traces()).toHaveLength(8);
    expect(server.traces().reduce((total, trace) => total + trace.observations.length, 0)).toBe(8 + callCount);
    expect(server.scores()).toHaveLength(metricCount);
  });

  it('sends metadata_only conversations without a word of their content, scores without reasons', async () => {
    const work = copyExample('municipal');
    const report = await replayRun(work, '.');
    const server = await fakeLangfuse();
    const exported = await parleyAsync(['export', report.run_id, '--to', 'langfuse'], { cwd: work, env: { ...KEYS, LANGFUSE_HOST: server.url } });
    expect(exported.status, exported.stderr).toBe(0);
    const withheld = new Set(report.results.filter((result) => result.metadata_only).map((result) => result.scenario_id));
    expect(withheld.size).toBeGreaterThan(0);
    const contentKeys = ['langfuse.trace.input', 'langfuse.trace.output', 'langfuse.observation.input', 'langfuse.observation.output', 'gen_ai.input.messages', 'gen_ai.output.messages'];
    let checked = 0;
    for (const trace of server.traces()) {
      const keys = trace.observations.flatMap((observation) => Object.keys(observation.attributes));
      const explanations = trace.observations.flatMap((observation) => observation.events.map((event) => event.attributes['gen_ai.evaluation.explanation']));
      if (withheld.has(trace.name)) {
        checked += 1;
        expect(keys.filter((key) => contentKeys.includes(key)), trace.name).toEqual([]);
        expect(explanations.filter((text) => text !== undefined), trace.name).toEqual([]);
        const scores = server.scores().filter((score) => score.traceId === trace.traceId);
        expect(scores.length).toBeGreaterThan(0);
        expect(scores.every((score) => score.comment === undefined)).toBe(true);
      } else {
        expect(keys).toContain('langfuse.trace.input');
      }
    }
    expect(checked).toBe(withheld.size);
  });

  it('exits 2 with one clear line when Langfuse refuses the keys, and names none of them', async () => {
    const work = copyExample('booking');
    const report = await replayRun(work, '.');
    const server = await fakeLangfuse();
    const refused = await parleyAsync(['export', report.run_id, '--to', 'langfuse'], {
      cwd: work,
      env: { LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: KEYS.LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY: 'sk-lf-wrong-secret' },
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(`error: Langfuse at ${server.url} refused the keys (HTTP 401): check LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY (a project's keys, from its settings page)\n`);
    expect(refused.stderr + refused.stdout).not.toContain('sk-lf-wrong-secret');
    expect(server.traces()).toEqual([]);

    const missing = await parleyAsync(['export', report.run_id, '--to', 'langfuse'], { cwd: work, env: { LANGFUSE_HOST: server.url } });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('exporting to Langfuse needs LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY in the environment');
  });

  it('ends, naming the timeout, when Langfuse takes the connection and never answers (export and run --export)', async () => {
    const work = copyExample('booking');
    const report = await replayRun(work, '.');
    const hung = await silentServer();
    try {
      const url = hung.url;
      const env = { ...KEYS, LANGFUSE_HOST: url, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS: '200', PARLEY_LANGFUSE_TIMEOUT_MS: '1500' };
      const timedOut = /no answer within 200 ms \(the connect timeout, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS\)|did not take the traces within 1500 ms \(the total timeout, PARLEY_LANGFUSE_TIMEOUT_MS\)/;
      const exported = await parleyAsync(['export', report.run_id, '--to', 'langfuse'], { cwd: work, env });
      expect(exported.status, exported.stderr).toBe(1);
      expect(exported.stderr).toMatch(timedOut);
      const run = await parleyAsync(['run', '.', '--mode', 'replay', '--export', 'langfuse', '--out', 'out-hung'], { cwd: work, env });
      // The run ends: its reports written, the gate's exit code kept, the export's failure said.
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toMatch(timedOut);
    } finally {
      await hung.close();
    }
  });

  it('parley run --export langfuse runs, then exports, keeping the gate\'s exit code', async () => {
    const work = copyExample('booking');
    const server = await fakeLangfuse();
    const run = await parleyAsync(['run', '.', '--export', 'langfuse', '--scenario', 'spa_booking_*'], { cwd: work, env: { ...KEYS, LANGFUSE_HOST: server.url } });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/exported run \S+: 3 traces \(\d+ spans\) and \d+ scores to Langfuse at /);
    expect(server.traces().map((trace) => trace.name).sort()).toEqual(['spa_booking_codeswitch', 'spa_booking_english_happy', 'spa_booking_swahili_happy']);
  });
});

describe('parley export --to otlp=URL (the binary, against a plain collector)', () => {
  it('sends the same traces with the GenAI conventions, retrying a collector that is briefly unavailable', async () => {
    const work = copyExample('booking');
    const report = await replayRun(work, '.');
    const bodies: string[] = [];
    let unavailable = 1;
    const collector: Server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        if (unavailable > 0) {
          unavailable -= 1;
          response.writeHead(503, { 'retry-after': '0' }).end();
          return;
        }
        bodies.push(body);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
      const exported = await parleyAsync(['export', report.run_id, '--to', `otlp=${url}`], { cwd: work, env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } });
      expect(exported.status, exported.stderr).toBe(0);
      expect(exported.stdout).toMatch(/^exported run \S+: 8 traces \(\d+ spans\) to the OTLP endpoint http:\/\/127\.0\.0\.1:\d+\/v1\/traces\n$/);
      expect(bodies).toHaveLength(1);
      const spans = (JSON.parse(bodies[0]!) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ traceId: string; attributes: Array<{ key: string }> }> }> }> }).resourceSpans
        .flatMap((resource) => resource.scopeSpans)
        .flatMap((scope) => scope.spans);
      expect(new Set(spans.map((span) => span.traceId)).size).toBe(8);
      const keys = new Set(spans.flatMap((span) => span.attributes.map((attribute) => attribute.key)));
      expect(keys).toContain('gen_ai.request.model');
      expect(keys).toContain('gen_ai.usage.output_tokens');
      expect([...keys].filter((key) => key.startsWith('langfuse.'))).toEqual([]);
    } finally {
      collector.closeAllConnections();
      await new Promise<void>((resolve) => collector.close(() => resolve()));
    }
  });
});

describe('parley export --to otlp=BASE_URL (the binary, against @elastic/mockotlpserver)', () => {
  it('sends service agents\' turns as spans, in protobuf by default, to BASE/v1/traces, with conforming GenAI attributes', async () => {
    const work = copyExample('service-agents');
    const report = await replayRun(work, '.');
    const received: unknown[] = [];
    const contentTypes: string[] = [];
    // Elastic's OTLP receiver (no types shipped): decodes /v1/traces only, both encodings, with its own copy of the official protos.
    type MockOptions = { logLevel: string; services: string[]; httpHostname: string; httpPort: number; onRequest: (request: { path: string; headers: Record<string, string> }) => void; onTrace: (trace: unknown) => void };
    const { MockOtlpServer } = createRequire(import.meta.url)('@elastic/mockotlpserver') as { MockOtlpServer: new (options: MockOptions) => { httpUrl: URL; start(): Promise<void>; close(): Promise<void> } };
    const mock = new MockOtlpServer({
      logLevel: 'warn',
      services: ['http'],
      httpHostname: '127.0.0.1',
      httpPort: 0,
      onRequest: (request) => contentTypes.push(`${request.path} ${request.headers['content-type']}`),
      onTrace: (trace) => received.push(trace),
    });
    await mock.start();
    try {
      const base = mock.httpUrl.href.replace(/\/$/, '');
      const exported = await parleyAsync(['export', report.run_id, '--to', `otlp=${base}`], { cwd: work });
      expect(exported.status, exported.stderr).toBe(0);
      expect(exported.stdout).toBe(`exported run ${report.run_id}: 3 traces (9 spans) to the OTLP endpoint ${base}/v1/traces\n`);
      expect(contentTypes).toEqual(['/v1/traces application/x-protobuf']);
      expect(received).toHaveLength(1);
      type Decoded = { name: string; parentSpanId?: Uint8Array; attributes: Array<{ key: string; value: Record<string, unknown> }> };
      const spans = (received[0] as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Decoded[] }> }> }).resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
      const attribute = (span: Decoded, key: string) => span.attributes.find((item) => item.key === key)?.value;
      // Each scenario: the conversation and one span per agent turn (opening and one scripted turn).
      for (const agent of ['receptionist_command', 'receptionist_module', 'receptionist_http']) {
        const turns = spans.filter((span) => span.name === `invoke_agent ${agent}` && span.parentSpanId !== undefined && span.parentSpanId.length > 0);
        expect(turns, agent).toHaveLength(2);
        for (const turn of turns) {
          expect(attribute(turn, 'gen_ai.operation.name')).toEqual({ stringValue: 'invoke_agent' });
          const output = JSON.parse(String(attribute(turn, 'gen_ai.output.messages')?.['stringValue'])) as Array<{ finish_reason: string }>;
          expect(['stop', 'tool_call']).toContain(output[0]!.finish_reason);
        }
      }
      const roots = spans.filter((span) => span.parentSpanId === undefined || span.parentSpanId.length === 0);
      expect(roots).toHaveLength(3);
      for (const root of roots) expect(attribute(root, 'gen_ai.operation.name')).toEqual({ stringValue: 'invoke_agent' });
    } finally {
      await mock.close();
    }
  });
});

describe('parley export --to langfuse --dataset NAME (a Langfuse experiment)', () => {
  it('records a comparison run as one dataset item per scenario and one dataset run per agent, each item linked to its trace; a re-export changes nothing', async () => {
    const work = copyExample('booking');
    const run = await parleyAsync(['run', '.', '--agent', 'booking', '--agent', 'booking_v2', '--out', 'report'], { cwd: work });
    expect(run.status, run.stderr).toBeLessThan(2);
    const report = JSON.parse(readFileSync(join(work, 'report', 'report.json'), 'utf8')) as { run_id: string; results: Array<{ scenario_id: string; agent: string }> };
    const scenarios = new Set(report.results.map((result) => result.scenario_id.split('@')[0]));
    expect(scenarios.size).toBeGreaterThan(1);
    const server = await fakeLangfuse();
    const env = { ...KEYS, LANGFUSE_HOST: server.url };

    const exported = await parleyAsync(['export', report.run_id, '--to', 'langfuse', '--dataset', 'booking-eval'], { cwd: work, env });
    expect(exported.status, exported.stderr).toBe(0);
    const runNames = [`${report.run_id}@booking`, `${report.run_id}@booking_v2`];
    expect(exported.stdout).toContain(`dataset booking-eval: ${scenarios.size} items; dataset runs ${runNames.join(', ')} (${report.results.length} items linked to their traces now)\n`);

    const { datasets, items, runs } = server.datasets();
    expect(datasets.map((dataset) => dataset.name)).toEqual(['booking-eval']);
    expect(items.map((item) => (item.metadata as { scenario_id: string }).scenario_id).sort()).toEqual([...scenarios].sort());
    // Masked input and the expected behaviour: the scenario's user side and its expectations.
    const happy = items.find((item) => (item.metadata as { scenario_id: string }).scenario_id === 'spa_booking_swahili_happy')!;
    expect(happy.input).toMatchObject({ opening: expect.any(String), script: expect.any(Array) });
    expect(Array.isArray(happy.expectedOutput) && (happy.expectedOutput as Array<{ metric: string }>).every((expectation) => typeof expectation.metric === 'string')).toBe(true);
    expect(runs.map((datasetRun) => datasetRun.name).sort()).toEqual(runNames);
    const traceIds = new Set(server.traces().map((trace) => trace.traceId));
    for (const datasetRun of runs) {
      expect(datasetRun.datasetRunItems).toHaveLength(scenarios.size);
      expect(new Set(datasetRun.datasetRunItems.map((item) => item.datasetItemId))).toEqual(new Set(items.map((item) => item.id)));
      expect(datasetRun.datasetRunItems.every((item) => traceIds.has(item.traceId))).toBe(true);
    }
    // The two runs link the same items to different conversations.
    const [first, second] = runs;
    expect(first!.datasetRunItems.map((item) => item.traceId).filter((id) => second!.datasetRunItems.some((other) => other.traceId === id))).toEqual([]);
    // Each dataset run has its pass rate as a score.
    const runScores = server.scores().filter((score) => score.name === 'pass_rate');
    expect(runScores).toHaveLength(2);

    const again = await parleyAsync(['export', report.run_id, '--to', 'langfuse', '--dataset', 'booking-eval'], { cwd: work, env });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('(0 items linked to their traces now)');
    const after = server.datasets();
    expect(after.items).toHaveLength(items.length);
    expect(after.runs.map((datasetRun) => datasetRun.datasetRunItems.length)).toEqual(runs.map((datasetRun) => datasetRun.datasetRunItems.length));
    expect(server.scores().filter((score) => score.name === 'pass_rate')).toHaveLength(2);
  });

  it('parley run --export langfuse --dataset NAME records the run; --dataset without Langfuse is refused', async () => {
    const work = copyExample('booking');
    const server = await fakeLangfuse();
    const env = { ...KEYS, LANGFUSE_HOST: server.url };
    const run = await parleyAsync(['run', '.', '--export', 'langfuse', '--dataset', 'nightly', '--scenario', 'spa_booking_*'], { cwd: work, env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/dataset nightly: 3 items; dataset runs \S+@booking \(3 items linked to their traces now\)/);
    expect(server.datasets().runs).toHaveLength(1);
    const refused = await parleyAsync(['run', '.', '--export', 'otlp=http://127.0.0.1:4318', '--dataset', 'nightly'], { cwd: work, env });
    expect([refused.status, refused.stderr.trim()]).toEqual([2, 'error: --dataset records an experiment in Langfuse: use it with langfuse as the destination']);
  });
});
