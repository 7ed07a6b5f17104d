import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { loadFakeScript, startFakeLlm } from '@parley/fake-llm';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { copyExample, REPO_ROOT } from '../test-support/example-copy.js';
import { parleyAsync } from '../test-support/parley-process.js';

/**
 * The booking example's export, as Elastic's mockotlpserver decodes it (OTLP/JSON to its
 * /v1/traces), held to the published GenAI conventions vendored in libs/telemetry (v1.41.1): every
 * message list valid against the messages JSON schemas, every gen_ai.* attribute of the registry's
 * type, span names `{operation} {model}`, evaluations on an `invoke_agent` span.
 */
const semconv = (file: string) => readFileSync(join(REPO_ROOT, 'libs/telemetry/src/test-support/semconv', file), 'utf8');

type AnyValue = Record<string, unknown>;
type Span = { name: string; attributes: Array<{ key: string; value: AnyValue }>; events?: Array<{ name: string; attributes: Array<{ key: string; value: AnyValue }> }> };

describe('parley export --to otlp: the GenAI conventions, checked on what a receiver decoded', () => {
  it('every message list validates, every gen_ai attribute has the registry\'s type, names and evaluations as the conventions say', async () => {
    const work = copyExample('booking');
    // Recorded live against the fake LLM (the example's own script): every model call reaches a
    // server, whose host and port its span names. A replay of the same suite reaches none.
    const fake = await startFakeLlm({ script: loadFakeScript(join(work, 'fake-llm.yaml')) });
    let runId: string;
    let port: string;
    try {
      port = new URL(fake.openaiBaseUrl).port;
      const keys = { OPENAI_API_KEY: 'sk-fake-llm-local', ANTHROPIC_API_KEY: 'sk-ant-fake-llm-local', OPENAI_BASE_URL: fake.openaiBaseUrl, ANTHROPIC_BASE_URL: fake.anthropicBaseUrl };
      const run = await parleyAsync(['run', '.', '--mode', 'record', '--out', 'report'], { cwd: work, env: keys });
      expect(run.status, run.stderr).toBeLessThan(2);
      ({ run_id: runId } = JSON.parse(readFileSync(join(work, 'report', 'report.json'), 'utf8')) as { run_id: string });
    } finally {
      await fake.close();
    }
    const replayed = await parleyAsync(['run', '.', '--out', 'replayed'], { cwd: work, env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(replayed.status, replayed.stderr).toBeLessThan(2);
    const replayedCalls = JSON.stringify(JSON.parse(readFileSync(join(work, 'replayed', 'report.json'), 'utf8')));
    expect(replayedCalls).toContain('"response_model"');
    expect(replayedCalls).not.toMatch(/"server_(address|port)"/);
    type MockOptions = { logLevel: string; services: string[]; httpHostname: string; httpPort: number; onTrace: (trace: unknown) => void };
    const { MockOtlpServer } = createRequire(import.meta.url)('@elastic/mockotlpserver') as { MockOtlpServer: new (options: MockOptions) => { httpUrl: URL; start(): Promise<void>; close(): Promise<void> } };
    const received: unknown[] = [];
    const mock = new MockOtlpServer({ logLevel: 'warn', services: ['http'], httpHostname: '127.0.0.1', httpPort: 0, onTrace: (trace) => received.push(trace) });
    await mock.start();
    let spans: Span[];
    try {
      const exported = await parleyAsync(['export', runId, '--to', `otlp=${mock.httpUrl.href}v1/traces`], { cwd: work, env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } });
      expect(exported.status, exported.stderr).toBe(0);
      spans = (received as Array<{ resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }> }>).flatMap((request) => request.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)));
    } finally {
      await mock.close();
    }
    expect(spans.length).toBeGreaterThan(8);

    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addFormat('binary', true);
    const schemas = { 'gen_ai.input.messages': ajv.compile(JSON.parse(semconv('gen-ai-input-messages.json')) as object), 'gen_ai.output.messages': ajv.compile(JSON.parse(semconv('gen-ai-output-messages.json')) as object) };
    const types = new Map<string, string>();
    for (const file of ['gen-ai-registry.yaml', 'error-registry.yaml', 'server-registry.yaml']) {
      for (const group of (parse(semconv(file)) as { groups: Array<{ attributes?: Array<{ id: string; type: unknown }> }> }).groups) {
        for (const attribute of group.attributes ?? []) types.set(attribute.id, typeof attribute.type === 'string' ? attribute.type : 'string');
      }
    }
    const otlpType = (value: AnyValue) => ({ stringValue: 'string', intValue: 'int', doubleValue: 'double', boolValue: 'boolean', arrayValue: 'string[]' })[Object.keys(value)[0]!];
    const problems: string[] = [];
    let lists = 0;
    for (const span of spans) {
      const attributes = new Map(span.attributes.map((item) => [item.key, item.value]));
      for (const [key, validate] of Object.entries(schemas)) {
        const text = attributes.get(key)?.['stringValue'];
        if (typeof text !== 'string') continue;
        lists += 1;
        if (!validate(JSON.parse(text))) problems.push(`${span.name} ${key}: ${ajv.errorsText(validate.errors)}`);
      }
      for (const { key, value } of [...span.attributes, ...(span.events ?? []).flatMap((event) => event.attributes)]) {
        if (!key.startsWith('gen_ai.') && !key.startsWith('server.')) continue;
        const expected = types.get(key) === 'any' ? 'string' : types.get(key);
        if (otlpType(value) !== expected) problems.push(`${span.name} ${key}: ${otlpType(value)}, the registry says ${expected}`);
      }
      const operation = attributes.get('gen_ai.operation.name')?.['stringValue'];
      if (operation === undefined) problems.push(`${span.name}: no gen_ai.operation.name`);
      else if (operation === 'chat' && span.name !== `chat ${String(attributes.get('gen_ai.request.model')?.['stringValue'])}`) problems.push(`${span.name}: not "chat {model}"`);
      if ((span.events ?? []).length > 0 && operation !== 'invoke_agent') problems.push(`${span.name}: evaluations on a span that is not the agent's invocation`);
    }
    expect(lists).toBeGreaterThan(0);
    expect(problems).toEqual([]);

    // Every model call says which model answered, why it stopped (the provider's words, as an array)
    // and which endpoint it was for; never the URL's credentials, path or query.
    const modelCalls = spans.filter((span) => span.name.startsWith('chat '));
    expect(modelCalls.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    for (const span of modelCalls) {
      const attributes = new Map(span.attributes.map((item) => [item.key, item.value]));
      const role = attributes.get('parley.call.role')?.['stringValue'];
      expect(attributes.get('gen_ai.response.model')?.['stringValue'], span.name).toEqual(expect.any(String));
      const reasons = (attributes.get('gen_ai.response.finish_reasons')?.['arrayValue'] as { values: AnyValue[] } | undefined)?.values.map((value) => value['stringValue']);
      expect(reasons, span.name).toEqual([expect.stringMatching(/^(stop|tool_calls|tool_use|end_turn)$/)]);
      const server = `${String(attributes.get('server.address')?.['stringValue'])}:${Number(attributes.get('server.port')?.['intValue'])}`;
      seen.add(`${String(role)} ${server}`);
    }
    // The agent and both judges (OpenAI and Anthropic) went to the fake LLM's port.
    expect([...seen].sort()).toEqual([`agent 127.0.0.1:${port}`, `judge 127.0.0.1:${port}`]);
    const roots = spans.filter((span) => span.name.startsWith('invoke_agent ') && (span.events ?? []).length > 0);
    for (const root of roots) expect(root.attributes.find((item) => item.key === 'gen_ai.agent.version')?.value['stringValue']).toMatch(/^booking(_v2)?@/);
  });
});
