import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { floorRedactor } from '@parley/redaction';
import { redactResultContent } from '@parley/reports';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { conversationTraces } from './conversation-trace.js';
import { conversationSpans } from './otel-spans.js';
import type { SpanAttribute, SpanAttributes } from './otlp-request.js';
import { promptAgentResult, sampleReport, serviceAgentResult } from './test-support/sample-report.js';

/**
 * Every exported span checked against the published GenAI conventions (v1.41.1, vendored in
 * test-support/semconv with its source): message lists against the input/output messages JSON
 * schemas, each `gen_ai.*`, `error.*` and `server.*` attribute against the type its registry gives it.
 */
const semconv = (file: string) => readFileSync(new URL(`./test-support/semconv/${file}`, import.meta.url), 'utf8');

const ajv = new Ajv({ strict: false, allErrors: true });
// BlobPart's content: base64 text in JSON; Parley sends no blobs.
ajv.addFormat('binary', true);
const validators: Record<string, ValidateFunction> = {
  'gen_ai.input.messages': ajv.compile(JSON.parse(semconv('gen-ai-input-messages.json')) as object),
  'gen_ai.output.messages': ajv.compile(JSON.parse(semconv('gen-ai-output-messages.json')) as object),
};

/** attribute id → its registry type (`string`, `int`, `double`, `boolean`, `string[]`, `any`; enums are strings). */
function registryTypes(): Map<string, string> {
  const types = new Map<string, string>();
  for (const file of ['gen-ai-registry.yaml', 'error-registry.yaml', 'server-registry.yaml']) {
    const registry = parse(semconv(file)) as { groups: Array<{ attributes?: Array<{ id: string; type: unknown }> }> };
    for (const group of registry.groups) {
      for (const attribute of group.attributes ?? []) types.set(attribute.id, typeof attribute.type === 'string' ? attribute.type : 'string');
    }
  }
  return types;
}

function typeOf(value: SpanAttribute): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'string[]';
  return 'int' in value ? 'int' : 'double';
}

function exportedSpans() {
  const errored = promptAgentResult(false);
  errored.metrics = [...errored.metrics, { metric: 'json_schema', version: '1.0.0', score: null, threshold: null, passed: false, reason: 'unusable', error: true }];
  const report = sampleReport([errored, promptAgentResult(true), serviceAgentResult()].map((result, index) => ({ ...result, scenario_id: `${result.scenario_id}_${index}` })));
  // As exportRun does: attempts left out, content through the redactor.
  const results = report.results.map(({ attempts: _attempts, ...result }) => redactResultContent(result, floorRedactor()));
  const traces = conversationTraces({ ...report, results });
  return (['otlp', 'langfuse'] as const).flatMap((dialect) => conversationSpans(traces, { dialect, parleyVersion: '0.1.0' }).spans);
}

describe('exported spans against the published GenAI conventions', () => {
  it('every message list validates against the published JSON schema', () => {
    let lists = 0;
    for (const span of exportedSpans()) {
      for (const [key, validate] of Object.entries(validators)) {
        const value = span.attributes[key];
        if (value === undefined) continue;
        lists += 1;
        const valid = validate(JSON.parse(String(value)));
        expect(valid, `${span.name} ${key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
    // Per dialect: 2 agent calls × (input + output) + 4 service turns' lists.
    expect(lists).toBe(16);
  });

  it('an answer that calls tools is `tool_call` parts with finish_reason tool_call, a plain answer finishes with stop', () => {
    const outputs = exportedSpans()
      .map((span) => span.attributes['gen_ai.output.messages'])
      .filter((value): value is string => typeof value === 'string')
      .map((value) => JSON.parse(value) as Array<{ finish_reason: string; parts: Array<{ type: string }> }>);
    for (const [message] of outputs) {
      const callsTools = message!.parts.some((part) => part.type === 'tool_call');
      expect(message!.finish_reason).toBe(callsTools ? 'tool_call' : 'stop');
    }
    expect(outputs.some(([message]) => message!.parts.some((part) => part.type === 'tool_call'))).toBe(true);
  });

  it('every gen_ai.*, error.* and server.* attribute, on spans and events, has the registry\'s type', () => {
    const types = registryTypes();
    const checked = new Set<string>();
    const check = (attributes: SpanAttributes, where: string) => {
      for (const [key, value] of Object.entries(attributes)) {
        if (!key.startsWith('gen_ai.') && !key.startsWith('error.') && !key.startsWith('server.')) continue;
        const expected = types.get(key);
        expect(expected, `${where}: ${key} is not in the registry`).toBeDefined();
        expect(typeOf(value), `${where}: ${key}`).toBe(expected === 'any' ? 'string' : expected);
        checked.add(key);
      }
    };
    for (const span of exportedSpans()) {
      check(span.attributes, span.name);
      for (const event of span.events) check(event.attributes, `${span.name} / ${event.name}`);
    }
    expect([...checked].sort()).toEqual([
      'error.type',
      'gen_ai.agent.name',
      'gen_ai.conversation.id',
      'gen_ai.evaluation.explanation',
      'gen_ai.evaluation.name',
      'gen_ai.evaluation.score.label',
      'gen_ai.evaluation.score.value',
      'gen_ai.input.messages',
      'gen_ai.operation.name',
      'gen_ai.output.messages',
      'gen_ai.provider.name',
      'gen_ai.request.model',
      'gen_ai.response.finish_reasons',
      'gen_ai.response.model',
      'gen_ai.usage.cache_read.input_tokens',
      'gen_ai.usage.input_tokens',
      'gen_ai.usage.output_tokens',
      'server.address',
      'server.port',
    ]);
  });

  it('docs/telemetry.md names every gen_ai.* and server.* attribute the export sends', () => {
    const doc = readFileSync(new URL('../../../docs/telemetry.md', import.meta.url), 'utf8');
    // The page writes a family once (`gen_ai.usage.input_tokens` / `output_tokens` / …) and a fixed value after `=`.
    const named = new Set(
      [...doc.matchAll(/`((?:gen_ai|server)\.[a-z_.]+)(?:=[^`]*)?`((?:\s*\/\s*`[a-z_.]+`)*)/g)].flatMap((match) => {
        const first = match[1]!;
        const family = first.split('.').slice(0, 2).join('.');
        return [first, ...[...match[2]!.matchAll(/`([a-z_.]+)`/g)].map((part) => (/^(gen_ai|server)\./.test(part[1]!) ? part[1]! : `${family}.${part[1]!}`))];
      }),
    );
    const sent = new Set(exportedSpans().flatMap((span) => [...Object.keys(span.attributes), ...span.events.flatMap((event) => Object.keys(event.attributes))]));
    const undocumented = [...sent].filter((key) => (key.startsWith('gen_ai.') || key.startsWith('server.')) && !named.has(key));
    expect(undocumented).toEqual([]);
  });

  it('names spans `{gen_ai.operation.name} {gen_ai.request.model}`, agents `invoke_agent {gen_ai.agent.name}`, and hangs evaluations on the agent invocation', () => {
    for (const span of exportedSpans()) {
      const operation = span.attributes['gen_ai.operation.name'];
      expect(operation, span.name).toBeDefined();
      if (operation === 'chat') expect(span.name).toBe(`chat ${String(span.attributes['gen_ai.request.model'])}`);
      else expect(span.name).toBe(`invoke_agent ${String(span.attributes['gen_ai.agent.name'])}`);
      if (span.events.length > 0) expect(span.attributes['gen_ai.operation.name']).toBe('invoke_agent');
    }
  });
});
