import type { CallSpan, ConversationTrace, TraceScore } from './conversation-trace.js';
import { messagesText } from './genai-messages.js';
import { double, int, type SpanAttributes, type TraceBatch, type TraceSpan } from './otlp-request.js';

/** Who the spans are for: Langfuse reads its own `langfuse.*` attributes besides the GenAI conventions. */
type SpanDialect = 'langfuse' | 'otlp';

export interface SpanOptions {
  dialect: SpanDialect;
  /** Parley's version, for the resource and the instrumentation scope. */
  parleyVersion: string;
}

/** `gen_ai.provider.name` of a service agent's turns: not a model provider, so a value of our own. */
const SERVICE_AGENT_PROVIDER = 'parley.service';

/**
 * The spans of conversations as the OpenTelemetry GenAI conventions describe an agent
 * (docs/telemetry.md has the layout):
 * - the conversation is an `invoke_agent {agent}` span (`gen_ai.operation.name` `invoke_agent`,
 *   `gen_ai.agent.name`), carrying each metric result as a `gen_ai.evaluation.result` event: the
 *   metrics judge the agent over the whole conversation, which is this operation;
 * - each call of a prompt agent, the simulator or a judge is a `chat {model}` client span with
 *   provider, model, token usage and (agent and simulator) its input and output messages;
 * - each turn of a service agent (http, command, module) is an `invoke_agent {agent}` client span
 *   with the messages it was sent and answered.
 * Content is what the redacted report holds, and nothing for `metadata_only` scenarios.
 */
export function conversationSpans(traces: readonly ConversationTrace[], options: SpanOptions): TraceBatch {
  return {
    resource: { 'service.name': 'parley', 'service.version': options.parleyVersion },
    scope: { name: 'parley', version: options.parleyVersion },
    spans: traces.flatMap((trace) => traceSpans(trace, options.dialect)),
  };
}

function traceSpans(trace: ConversationTrace, dialect: SpanDialect): TraceSpan[] {
  const agent = trace.metadata['agent'] ?? '';
  const root: TraceSpan = {
    traceId: trace.trace_id,
    spanId: trace.root_span_id,
    name: agent !== '' ? `invoke_agent ${agent}` : 'invoke_agent',
    kind: 'internal',
    startMs: trace.start_ms,
    endMs: trace.end_ms,
    status: trace.status === 'error' ? { code: 'error', message: 'the scenario could not be evaluated' } : { code: 'ok' },
    attributes: rootAttributes(trace, dialect),
    events: trace.scores.map((score) => ({ timeMs: trace.end_ms, name: 'gen_ai.evaluation.result', attributes: evaluationAttributes(score) })),
  };
  const children = trace.spans.map((span): TraceSpan => {
    const service = span.call.provider === 'service';
    return {
      traceId: trace.trace_id,
      spanId: span.span_id,
      parentSpanId: trace.root_span_id,
      name: service ? `invoke_agent ${agent}` : `chat ${span.call.model}`,
      kind: 'client',
      startMs: span.start_ms,
      endMs: span.end_ms,
      status: { code: 'unset' },
      attributes: service ? serviceTurnAttributes(trace, span, dialect) : callAttributes(trace, span, dialect),
      events: [],
    };
  });
  return [root, ...children];
}

function rootAttributes(trace: ConversationTrace, dialect: SpanDialect): SpanAttributes {
  const attributes: SpanAttributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.conversation.id': trace.trace_id,
    'parley.metadata_only': trace.metadata_only,
  };
  const agentCall = trace.spans.find((span) => span.call.role === 'agent');
  if (agentCall) attributes['gen_ai.provider.name'] = providerName(agentCall.call.provider);
  if (agentCall && agentCall.call.provider !== 'service') attributes['gen_ai.request.model'] = agentCall.call.model;
  if (trace.metadata['agent'] !== undefined) attributes['gen_ai.agent.name'] = trace.metadata['agent'];
  if (trace.metadata['prompt_version'] !== undefined) attributes['gen_ai.agent.version'] = trace.metadata['prompt_version'];
  for (const [key, value] of Object.entries(trace.metadata)) attributes[`parley.${key}`] = value;
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

function callAttributes(trace: ConversationTrace, span: CallSpan, dialect: SpanDialect): SpanAttributes {
  const { call } = span;
  const attributes: SpanAttributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': providerName(call.provider),
    'gen_ai.request.model': call.model,
    'gen_ai.conversation.id': trace.trace_id,
    'gen_ai.usage.input_tokens': int(call.input_tokens),
    'gen_ai.usage.output_tokens': int(call.output_tokens),
    'parley.call.role': call.role,
    'parley.call.turn': int(call.turn),
    'parley.provider.kind': call.provider,
    'parley.latency_ms': double(call.latency_ms),
  };
  if (call.cached_input_tokens !== undefined) attributes['gen_ai.usage.cache_read.input_tokens'] = int(call.cached_input_tokens);
  if (call.cache_write_input_tokens !== undefined) attributes['gen_ai.usage.cache_creation.input_tokens'] = int(call.cache_write_input_tokens);
  if (call.cost_usd !== null) attributes['parley.cost_usd'] = double(call.cost_usd);
  if (call.response_model !== undefined && call.response_model !== '') attributes['gen_ai.response.model'] = call.response_model;
  if (call.server_address !== undefined && call.server_address !== '') {
    attributes['server.address'] = call.server_address;
    if (call.server_port !== undefined) attributes['server.port'] = int(call.server_port);
  }
  if (call.role === 'agent' && trace.metadata['agent'] !== undefined) attributes['gen_ai.agent.name'] = trace.metadata['agent'];
  addMessages(attributes, span);
  // The provider's own reason wins over the one the output message implies (judges have no messages).
  if (call.finish_reason !== undefined && call.finish_reason !== '') attributes['gen_ai.response.finish_reasons'] = [call.finish_reason];
  if (dialect === 'langfuse') {
    attributes['langfuse.observation.type'] = 'generation';
    attributes['langfuse.observation.model.name'] = call.model;
    attributes['langfuse.observation.usage_details'] = JSON.stringify({ input: call.input_tokens, output: call.output_tokens, total: call.input_tokens + call.output_tokens });
    if (call.cost_usd !== null) attributes['langfuse.observation.cost_details'] = JSON.stringify({ total: call.cost_usd });
    attributes['langfuse.observation.metadata.role'] = call.role;
    addLangfuseContent(attributes, span);
  }
  return attributes;
}

function serviceTurnAttributes(trace: ConversationTrace, span: CallSpan, dialect: SpanDialect): SpanAttributes {
  const attributes: SpanAttributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': SERVICE_AGENT_PROVIDER,
    'gen_ai.conversation.id': trace.trace_id,
    'parley.call.role': 'agent',
    'parley.call.turn': int(span.call.turn),
    'parley.latency_ms': double(span.call.latency_ms),
  };
  if (trace.metadata['agent'] !== undefined) attributes['gen_ai.agent.name'] = trace.metadata['agent'];
  addMessages(attributes, span);
  if (dialect === 'langfuse') {
    attributes['langfuse.observation.type'] = 'agent';
    attributes['langfuse.observation.metadata.role'] = 'agent';
    addLangfuseContent(attributes, span);
  }
  return attributes;
}

function addMessages(attributes: SpanAttributes, span: CallSpan): void {
  if (span.input !== undefined) attributes['gen_ai.input.messages'] = JSON.stringify(span.input);
  if (span.output !== undefined) {
    attributes['gen_ai.output.messages'] = JSON.stringify(span.output);
    attributes['gen_ai.response.finish_reasons'] = span.output.map((message) => message.finish_reason);
  }
}

function addLangfuseContent(attributes: SpanAttributes, span: CallSpan): void {
  if (span.input !== undefined) attributes['langfuse.observation.input'] = messagesText(span.input);
  if (span.output !== undefined) attributes['langfuse.observation.output'] = messagesText(span.output);
}

/**
 * `gen_ai.provider.name`: the conventions' names for the APIs Parley calls (an OpenAI-compatible
 * endpoint speaks OpenAI's API, which is what the attribute tells apart); Parley's own provider kind
 * stays in `parley.provider.kind`.
 */
function providerName(kind: string): string {
  if (kind === 'openai' || kind === 'openai-responses' || kind === 'openai-compatible') return 'openai';
  if (kind === 'service') return SERVICE_AGENT_PROVIDER;
  return kind;
}

function evaluationAttributes(score: TraceScore): SpanAttributes {
  return {
    'gen_ai.evaluation.name': score.name,
    // A double by the convention's type, also when the value is whole (a pass/fail metric's 1 or 0).
    // A metric that could not be evaluated has no score: a 0 would read as the worst one.
    ...(score.error ? {} : { 'gen_ai.evaluation.score.value': double(score.value) }),
    'gen_ai.evaluation.score.label': score.error ? 'error' : score.passed ? 'pass' : 'fail',
    ...(score.error ? { 'error.type': '_OTHER' } : {}),
    ...(score.reason !== undefined ? { 'gen_ai.evaluation.explanation': score.reason } : {}),
  };
}
