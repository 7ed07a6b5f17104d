import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { ExportError, refusedKeys } from './export-errors.js';

export interface OtlpTarget {
  /** The full traces URL, e.g. `http://collector:4318/v1/traces` or Langfuse's `/api/public/otel/v1/traces`. */
  url: string;
  headers?: Record<string, string>;
  /** What the target is called in messages (`Langfuse at https://…`); never with credentials. */
  shown: string;
  /** Said after "refused the keys" when the target answers 401/403. */
  keysHint: string;
  /** Per request, retries included (the exporter retries 429, 502, 503, 504 with backoff, honouring Retry-After). */
  timeoutMs?: number;
}

/** Spans per request: well below the request-size limits collectors and Langfuse apply. */
const SPANS_PER_REQUEST = 500;

/**
 * Sends finished spans to an OTLP/HTTP endpoint (JSON encoding) with the official exporter, in
 * batches, one at a time. 401/403 is a ConfigError (exit 2); any other failure after the
 * exporter's retries is an ExportError naming the status and the target.
 */
export async function sendSpans(spans: readonly ReadableSpan[], target: OtlpTarget): Promise<void> {
  const exporter = new OTLPTraceExporter({
    url: target.url,
    ...(target.headers ? { headers: target.headers } : {}),
    timeoutMillis: target.timeoutMs ?? 30_000,
  });
  try {
    for (let start = 0; start < spans.length; start += SPANS_PER_REQUEST) {
      const batch = spans.slice(start, start + SPANS_PER_REQUEST);
      const result = await new Promise<{ code: ExportResultCode; error?: Error }>((resolve) => exporter.export(batch, resolve));
      if (result.code === ExportResultCode.SUCCESS) continue;
      const status = statusOf(result.error);
      if (status === 401 || status === 403) throw refusedKeys(target.shown, status, target.keysHint);
      const why = status !== undefined ? `HTTP ${status}` : (causeOf(result.error) ?? 'no answer');
      throw new ExportError(`sending traces to ${target.shown} failed (${why})`);
    }
  } finally {
    await exporter.shutdown();
  }
}

function statusOf(error: Error | undefined): number | undefined {
  const code: unknown = error === undefined ? undefined : Reflect.get(error, 'code');
  return typeof code === 'number' ? code : undefined;
}

function causeOf(error: Error | undefined): string | undefined {
  if (error === undefined) return undefined;
  const cause: unknown = error.cause;
  return cause instanceof Error ? cause.message : error.message;
}
