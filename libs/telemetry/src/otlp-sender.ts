import { backoffDelayMs, realSleep, resolvedRetryPolicy, retryAfterSeconds, type RetryPolicy, type Sleep } from '@parley/providers';
import { secretHeaderValues } from '@parley/redaction';
import { ExportError, refusedKeys } from './export-errors.js';
import { decodeResponse, encodeJsonRequest, encodeProtobufRequest, type TraceBatch } from './otlp-request.js';
import type { OtlpProtocol } from './otlp-settings.js';

export interface OtlpTarget {
  /** The full traces URL, e.g. `http://collector:4318/v1/traces` or Langfuse's `/api/public/otel/v1/traces`. */
  url: string;
  headers?: Record<string, string>;
  protocol: OtlpProtocol;
  /** What the target is called in messages (`Langfuse at https://…`); never with credentials. */
  shown: string;
  /** Said after "refused the keys" when the target answers 401/403. */
  keysHint: string;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** How the per-request timeout is set, named when it fires (default `OTEL_EXPORTER_OTLP_TIMEOUT`). */
  timeoutName?: string;
  /** The whole send, retries and their waits included, and how it is set; unbounded but by the retries when absent. */
  total?: { ms: number; name: string };
}

export interface SendSpansOptions {
  fetch?: typeof fetch;
  sleep?: Sleep;
  random?: () => number;
  retry?: RetryPolicy;
  /** Ctrl-C / SIGTERM: the request in flight is aborted and nothing more is sent (an ExportError saying so). */
  signal?: AbortSignal;
}

/** Spans per request: well below the request-size limits collectors and Langfuse apply. */
const SPANS_PER_REQUEST = 500;

/** The answers OTLP/HTTP says to retry (with Retry-After when the collector gives one). */
const RETRYABLE = new Set([429, 502, 503, 504]);

/**
 * Sends spans to an OTLP/HTTP endpoint, in batches, one request at a time, encoded as the target's
 * protocol says (protobuf through the official .proto files, or OTLP/JSON). Transient answers and
 * dropped connections are retried with the providers' policy (full-jitter backoff, honouring
 * Retry-After). 401/403 is a ConfigError (exit 2); any other refusal, and a partial success that
 * rejected spans, is an ExportError naming the target and what it said.
 */
export async function sendSpans(batch: TraceBatch, target: OtlpTarget, options: SendSpansOptions = {}): Promise<void> {
  const fetcher = options.fetch ?? fetch;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const policy = resolvedRetryPolicy(options.retry);
  const contentType = target.protocol === 'http/protobuf' ? 'application/x-protobuf' : 'application/json';
  const timeoutMs = target.timeoutMs ?? 10_000;
  const timeoutName = target.timeoutName ?? 'OTEL_EXPORTER_OTLP_TIMEOUT';
  const deadline = target.total === undefined ? undefined : Date.now() + target.total.ms;
  const totalTimeout = () => new ExportError(`${target.shown} did not take the traces within ${target.total!.ms} ms (the total timeout, ${target.total!.name})`);
  const { url, headers } = withUrlCredentials(target.url, target.headers ?? {});
  const hide = credentialHider(headers);
  const { signal } = options;
  const stopped = () => new ExportError(`sending traces to ${target.shown} stopped by ${String(signal?.reason ?? 'a signal')}`);
  for (let start = 0; start < batch.spans.length; start += SPANS_PER_REQUEST) {
    const part: TraceBatch = { ...batch, spans: batch.spans.slice(start, start + SPANS_PER_REQUEST) };
    const body = target.protocol === 'http/protobuf' ? encodeProtobufRequest(part) : encodeJsonRequest(part);
    for (let attempt = 1; ; attempt += 1) {
      if (signal?.aborted) throw stopped();
      let response: Response | undefined;
      let failure = '';
      const left = deadline === undefined ? timeoutMs : deadline - Date.now();
      if (left <= 0) throw totalTimeout();
      const attemptMs = Math.min(timeoutMs, left);
      try {
        response = await fetcher(url, {
          method: 'POST',
          headers: { ...headers, 'content-type': contentType, accept: contentType },
          body,
          signal: signal === undefined ? AbortSignal.timeout(attemptMs) : AbortSignal.any([AbortSignal.timeout(attemptMs), signal]),
        });
      } catch (error) {
        if (signal?.aborted) throw stopped();
        if (isTimeout(error) && attemptMs < timeoutMs) throw totalTimeout();
        failure = isTimeout(error) ? `no answer within ${timeoutMs} ms (${timeoutName})` : causeOf(error);
      }
      if (response?.ok) {
        const answer = new Uint8Array(await response.arrayBuffer());
        let partial;
        try {
          partial = decodeResponse(answer, target.protocol);
        } catch {
          throw new ExportError(`${target.shown} answered HTTP ${response.status} with a body that is not an OTLP ExportTraceServiceResponse (is ${target.url} a traces endpoint?)`);
        }
        if (partial !== undefined && partial.rejectedSpans > 0) {
          const why = partial.errorMessage !== '' ? `: ${hide(partial.errorMessage)}` : '';
          throw new ExportError(`${target.shown} rejected ${partial.rejectedSpans} of ${part.spans.length} spans${why}`);
        }
        break;
      }
      if (response !== undefined) {
        const text = (await response.text()).slice(0, 300);
        if (response.status === 401 || response.status === 403) throw refusedKeys(target.shown, response.status, target.keysHint);
        failure = `HTTP ${response.status}${hide(messageOf(text))}`;
        if (!RETRYABLE.has(response.status)) throw new ExportError(`sending traces to ${target.shown} failed (${failure})`);
      }
      if (attempt > policy.maxRetries) throw new ExportError(`sending traces to ${target.shown} failed after ${attempt} attempts (${failure})`);
      const retryAfter = response === undefined ? undefined : retryAfterSeconds((name) => response.headers.get(name));
      const wait = backoffDelayMs(attempt, policy, random(), retryAfter);
      if (deadline !== undefined && Date.now() + wait >= deadline) throw totalTimeout();
      try {
        await sleep(wait, signal);
      } catch (error) {
        if (signal?.aborted) throw stopped();
        throw error;
      }
    }
  }
}

/** `user:password@` in the URL (which fetch refuses) as HTTP Basic auth, unless headers already authorise. */
function withUrlCredentials(text: string, headers: Record<string, string>): { url: string; headers: Record<string, string> } {
  const url = new URL(text);
  if (url.username === '' && url.password === '') return { url: text, headers };
  const basic = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  url.username = '';
  url.password = '';
  const authorised = Object.keys(headers).some((key) => key.toLowerCase() === 'authorization');
  return { url: url.href, headers: authorised ? headers : { ...headers, authorization: `Basic ${basic}` } };
}

/**
 * Masks the credentials sent with the traces (an `Authorization` or API-key header, also decoded
 * when it is HTTP Basic) in what the collector answers: a proxy or collector that echoes the
 * request's headers in its error body must not put the key into the console or a CI log.
 */
function credentialHider(headers: Record<string, string>): (text: string) => string {
  const secrets = new Set(secretHeaderValues(headers));
  for (const [name, value] of Object.entries(headers)) {
    const basic = name.toLowerCase() === 'authorization' ? /^Basic\s+(\S+)$/i.exec(value.trim()) : null;
    if (basic === null) continue;
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    for (const part of [decoded, decoded.slice(decoded.indexOf(':') + 1), decoded.slice(0, Math.max(decoded.indexOf(':'), 0))]) if (part.length >= 8) secrets.add(part);
  }
  const longestFirst = [...secrets].sort((a, b) => b.length - a.length);
  return (text) => longestFirst.reduce((result, secret) => result.split(secret).join('<secret>'), text);
}

/** A collector's error body (google.rpc.Status in JSON, or text): its message, shortened. */
function messageOf(text: string): string {
  if (text.trim() === '') return '';
  try {
    const parsed: unknown = JSON.parse(text);
    const message = parsed !== null && typeof parsed === 'object' ? (Reflect.get(parsed, 'message') ?? Reflect.get(Reflect.get(parsed, 'error') ?? {}, 'message')) : undefined;
    if (typeof message === 'string') return `: ${message}`;
  } catch {
    // not JSON: a protobuf Status or plain text
  }
  return /^[\x20-\x7e\s]+$/.test(text) ? `: ${text.trim()}` : '';
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  return cause instanceof Error ? cause.message : error.message;
}
