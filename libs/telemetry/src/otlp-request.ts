import protobuf from 'protobufjs';
import { OTLP_TRACE_PROTO_FILES } from './otlp-proto-files.js';

/**
 * An attribute value with its OTLP type said explicitly. JavaScript numbers do not tell 1 from
 * 1.0, and the GenAI conventions type some attributes as double (an evaluation score of 1 is still
 * a double) and others as int (token counts), so numbers are wrapped: `{ int }` or `{ double }`.
 */
export type SpanAttribute = string | boolean | readonly string[] | { readonly int: number } | { readonly double: number };

export type SpanAttributes = Record<string, SpanAttribute>;

export interface TraceSpanEvent {
  name: string;
  timeMs: number;
  attributes: SpanAttributes;
}

/** A finished span with the export's own ids and times (hex ids as W3C trace context writes them). */
export interface TraceSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: 'internal' | 'client';
  startMs: number;
  endMs: number;
  status: { code: 'unset' | 'ok' | 'error'; message?: string };
  attributes: SpanAttributes;
  events: TraceSpanEvent[];
}

/** Spans of one resource (Parley) and one instrumentation scope. */
export interface TraceBatch {
  resource: SpanAttributes;
  scope: { name: string; version: string };
  spans: TraceSpan[];
}

export const int = (value: number): SpanAttribute => ({ int: Math.round(value) });
export const double = (value: number): SpanAttribute => ({ double: value });

/** OTLP's enum numbers (trace.proto): SpanKind and Status.StatusCode. */
const SPAN_KIND = { internal: 1, client: 3 } as const;
const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

/** The request as the OTLP/JSON encoding writes it: hex ids, 64-bit integers as decimal strings. */
export function otlpJsonRequest(batch: TraceBatch): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: { attributes: keyValues(batch.resource) },
        scopeSpans: [
          {
            scope: { name: batch.scope.name, version: batch.scope.version },
            spans: batch.spans.map((span) => ({
              traceId: span.traceId,
              spanId: span.spanId,
              ...(span.parentSpanId !== undefined ? { parentSpanId: span.parentSpanId } : {}),
              name: span.name,
              kind: SPAN_KIND[span.kind],
              startTimeUnixNano: unixNano(span.startMs),
              endTimeUnixNano: unixNano(span.endMs),
              attributes: keyValues(span.attributes),
              events: span.events.map((event) => ({ timeUnixNano: unixNano(event.timeMs), name: event.name, attributes: keyValues(event.attributes) })),
              status: { code: STATUS_CODE[span.status.code], ...(span.status.message !== undefined ? { message: span.status.message } : {}) },
            })),
          },
        ],
      },
    ],
  };
}

export function encodeJsonRequest(batch: TraceBatch): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(otlpJsonRequest(batch)));
}

/** The request in the binary protobuf encoding, through the official trace_service.proto. */
export function encodeProtobufRequest(batch: TraceBatch): Uint8Array {
  const type = protoTypes().request;
  const json = otlpJsonRequest(batch);
  // The JSON form's ids are hex; the protobuf fields are bytes.
  for (const resource of json['resourceSpans'] as Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }>) {
    for (const scope of resource.scopeSpans) {
      for (const span of scope.spans) {
        for (const key of ['traceId', 'spanId', 'parentSpanId']) {
          if (typeof span[key] === 'string') span[key] = Buffer.from(span[key], 'hex');
        }
      }
    }
  }
  const message = type.fromObject(json);
  return type.encode(message).finish();
}

/** What a collector said about a request it took: spans it rejected, and why. */
export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/**
 * The ExportTraceServiceResponse of a 2xx answer, in the request's encoding. An empty body is a
 * full success; a body that cannot be read is reported as such by the caller.
 */
export function decodeResponse(body: Uint8Array, protocol: 'http/json' | 'http/protobuf'): PartialSuccess | undefined {
  if (body.length === 0) return undefined;
  let partial: Record<string, unknown> | undefined;
  if (protocol === 'http/protobuf') {
    const type = protoTypes().response;
    const decoded = type.toObject(type.decode(body), { longs: String, defaults: false });
    partial = decoded['partialSuccess'] as Record<string, unknown> | undefined;
  } else {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
    partial = record(record(parsed)?.['partialSuccess'] ?? record(parsed)?.['partial_success']);
  }
  if (partial === undefined) return undefined;
  const rejected = Number(partial['rejectedSpans'] ?? partial['rejected_spans'] ?? 0);
  const message = String(partial['errorMessage'] ?? partial['error_message'] ?? '');
  if ((!Number.isFinite(rejected) || rejected === 0) && message === '') return undefined;
  return { rejectedSpans: Number.isFinite(rejected) ? rejected : 0, errorMessage: message };
}

let types: { request: protobuf.Type; response: protobuf.Type } | undefined;

function protoTypes(): { request: protobuf.Type; response: protobuf.Type } {
  if (types) return types;
  const root = new protobuf.Root();
  // Parsed in dependency order into one root; the imports between them resolve by full type name.
  for (const text of Object.values(OTLP_TRACE_PROTO_FILES)) protobuf.parse(text, root, { keepCase: false });
  root.resolveAll();
  types = {
    request: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
    response: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
  };
  return types;
}

function keyValues(attributes: SpanAttributes): Array<{ key: string; value: Record<string, unknown> }> {
  return Object.entries(attributes).map(([key, value]) => ({ key, value: anyValue(value) }));
}

function anyValue(value: SpanAttribute): Record<string, unknown> {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map((item: string) => ({ stringValue: item })) } };
  if ('int' in value) return { intValue: String(value.int) };
  return { doubleValue: (value as { double: number }).double };
}

function unixNano(ms: number): string {
  return (BigInt(Math.round(ms)) * 1_000_000n).toString();
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
