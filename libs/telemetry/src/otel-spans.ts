import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { CallSpan, ConversationTrace, TraceScore } from './conversation-trace.js';

/** Who the spans are for: Langfuse reads its own `langfuse.*` attributes besides the GenAI conventions. */
export type SpanDialect = 'langfuse' | 'otlp';

export interface SpanOptions {
  dialect: SpanDialect;
  /** Parley's version, for the resource and the instrumentation scope. */
  parleyVersion: string;
}

/**
 * The OpenTelemetry spans of one conversation: a root span for the conversation with each metric
 * result as a `gen_ai.evaluation.result` event, and one child span per call (agent, simulator,
 * judge) with the GenAI semantic conventions (`gen_ai.operation.name`, `gen_ai.provider.name`,
 * `gen_ai.request.model`, `gen_ai.usage.*`). They are built as finished `ReadableSpan`s with the
 * export's own ids and times (a tracer would draw random ids and stamp the current time), and
 * serialised and sent by the official OTLP exporter.
 */
export function conversationSpans(trace: ConversationTrace, options: SpanOptions): ReadableSpan[] {
  const resource = resourceFromAttributes({ 'service.name': 'parley', 'service.version': options.parleyVersion });
  const scope = { name: 'parley', version: options.parleyVersion };
  const rootContext = spanContext(trace.trace_id, trace.root_span_id);
  const root = readableSpan({
    name: `conversation ${trace.name}`,
    kind: SpanKind.INTERNAL,
    context: rootContext,
    startMs: trace.start_ms,
    endMs: trace.end_ms,
    status: trace.status === 'error' ? { code: SpanStatusCode.ERROR, message: 'the scenario could not be evaluated' } : { code: SpanStatusCode.OK },
    attributes: rootAttributes(trace, options.dialect),
    events: trace.scores.map((score) => ({ time: hrTime(trace.end_ms), name: 'gen_ai.evaluation.result', attributes: evaluationAttributes(score) })),
    resource,
    scope,
  });
  const children = trace.spans.map((span) =>
    readableSpan({
      name: `${span.call.role} chat ${span.call.model}`,
      kind: SpanKind.CLIENT,
      context: spanContext(trace.trace_id, span.span_id),
      parent: rootContext,
      startMs: span.start_ms,
      endMs: span.end_ms,
      status: { code: SpanStatusCode.OK },
      attributes: callAttributes(trace, span, options.dialect),
      events: [],
      resource,
      scope,
    }),
  );
  return [root, ...children];
}

function rootAttributes(trace: ConversationTrace, dialect: SpanDialect): Attributes {
  const attributes: Attributes = {
    'gen_ai.conversation.id': trace.trace_id,
    'parley.metadata_only': trace.metadata_only,
  };
  for (const [key, value] of Object.entries(trace.metadata)) attributes[`parley.${key}`] = value;
  if (trace.metadata['agent'] !== undefined) attributes['gen_ai.agent.name'] = trace.metadata['agent'];
  if (trace.tags.length > 0) attributes['parley.tags'] = trace.tags;
  if (dialect === 'langfuse') {
    attributes['langfuse.trace.name'] = trace.name;
    // The run is the session: Langfuse lists a run's conversations together.
    if (trace.metadata['run_id'] !== undefined) attributes['langfuse.session.id'] = trace.metadata['run_id'];
    if (trace.tags.length > 0) attributes['langfuse.trace.tags'] = trace.tags;
    for (const [key, value] of Object.entries(trace.metadata)) attributes[`langfuse.trace.metadata.${key}`] = value;
    if (trace.input !== undefined) attributes['langfuse.trace.input'] = trace.input;
    if (trace.output !== undefined) attributes['langfuse.trace.output'] = trace.output;
  }
  return attributes;
}

function callAttributes(trace: ConversationTrace, span: CallSpan, dialect: SpanDialect): Attributes {
  const { call } = span;
  const attributes: Attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': call.provider,
    'gen_ai.request.model': call.model,
    'gen_ai.response.model': call.model,
    'gen_ai.usage.input_tokens': call.input_tokens,
    'gen_ai.usage.output_tokens': call.output_tokens,
    'parley.call.role': call.role,
    'parley.call.turn': call.turn,
    'parley.latency_ms': call.latency_ms,
  };
  if (call.cost_usd !== null) attributes['parley.cost_usd'] = call.cost_usd;
  if (call.role === 'agent' && trace.metadata['agent'] !== undefined) attributes['gen_ai.agent.name'] = trace.metadata['agent'];
  if (span.input !== undefined) attributes['gen_ai.input.messages'] = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: span.input }] }]);
  if (span.output !== undefined) {
    const role = call.role === 'simulator' ? 'user' : 'assistant';
    attributes['gen_ai.output.messages'] = JSON.stringify([{ role, parts: [{ type: 'text', content: span.output }] }]);
  }
  if (dialect === 'langfuse') {
    attributes['langfuse.observation.type'] = 'generation';
    attributes['langfuse.observation.model.name'] = call.model;
    attributes['langfuse.observation.usage_details'] = JSON.stringify({ input: call.input_tokens, output: call.output_tokens, total: call.input_tokens + call.output_tokens });
    if (call.cost_usd !== null) attributes['langfuse.observation.cost_details'] = JSON.stringify({ total: call.cost_usd });
    attributes['langfuse.observation.metadata.role'] = call.role;
    if (span.input !== undefined) attributes['langfuse.observation.input'] = span.input;
    if (span.output !== undefined) attributes['langfuse.observation.output'] = span.output;
  }
  return attributes;
}

function evaluationAttributes(score: TraceScore): Attributes {
  return {
    'gen_ai.evaluation.name': score.name,
    'gen_ai.evaluation.score.value': score.value,
    'gen_ai.evaluation.score.label': score.error ? 'error' : score.passed ? 'pass' : 'fail',
    ...(score.reason !== undefined ? { 'gen_ai.evaluation.explanation': score.reason } : {}),
  };
}

function spanContext(traceId: string, spanId: string): SpanContext {
  return { traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: false };
}

function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

interface SpanParts {
  name: string;
  kind: SpanKind;
  context: SpanContext;
  parent?: SpanContext;
  startMs: number;
  endMs: number;
  status: ReadableSpan['status'];
  attributes: Attributes;
  events: ReadableSpan['events'];
  resource: ReadableSpan['resource'];
  scope: ReadableSpan['instrumentationScope'];
}

function readableSpan(parts: SpanParts): ReadableSpan {
  return {
    name: parts.name,
    kind: parts.kind,
    spanContext: () => parts.context,
    ...(parts.parent ? { parentSpanContext: parts.parent } : {}),
    startTime: hrTime(parts.startMs),
    endTime: hrTime(parts.endMs),
    duration: hrTime(parts.endMs - parts.startMs),
    status: parts.status,
    attributes: parts.attributes,
    links: [],
    events: parts.events,
    ended: true,
    resource: parts.resource,
    instrumentationScope: parts.scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
