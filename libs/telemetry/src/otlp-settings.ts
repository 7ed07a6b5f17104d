import { ConfigError } from '@parley/core';

/** The OTLP/HTTP encodings Parley sends (gRPC is not supported). */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** Where and how `parley export --to otlp` sends traces, resolved from the flag and the OTLP variables. */
export interface OtlpSettings {
  /** The full traces URL the requests go to. */
  url: string;
  headers: Record<string, string>;
  protocol: OtlpProtocol;
  /** Per request (OTEL_EXPORTER_OTLP_TIMEOUT, in milliseconds). */
  timeoutMs: number;
  /** Where the URL came from, for messages: `--to otlp=URL`, a variable's name, or the default. */
  urlSource: string;
}

/** The exporter specification's defaults: the local collector's OTLP/HTTP port, protobuf, 10 s. */
export const DEFAULT_OTLP_BASE_URL = 'http://localhost:4318';
const DEFAULT_TIMEOUT_MS = 10_000;
const TRACES_PATH = 'v1/traces';

/**
 * Resolves the traces endpoint as the OpenTelemetry exporter specification says (docs/telemetry.md
 * has the rules with examples):
 * - `--to otlp=URL`: a URL with no path (or `/`) is a collector's base URL and gets `v1/traces`
 *   appended; a URL with a path is used as it is, like the signal-specific variable;
 * - else `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, used as it is;
 * - else `OTEL_EXPORTER_OTLP_ENDPOINT` as a base URL, `v1/traces` resolved relative to it (so
 *   `http://collector:4318/mycollector` sends to `http://collector:4318/mycollector/v1/traces`);
 * - else `http://localhost:4318/v1/traces`.
 * Headers come from `OTEL_EXPORTER_OTLP_HEADERS`, overridden key by key by
 * `OTEL_EXPORTER_OTLP_TRACES_HEADERS`; the protocol from `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`,
 * else `OTEL_EXPORTER_OTLP_PROTOCOL`, else `http/protobuf`; the timeout likewise.
 */
export function otlpSettings(flagUrl: string | undefined, env: NodeJS.ProcessEnv): OtlpSettings {
  const { url, urlSource } = tracesUrl(flagUrl, env);
  return {
    url,
    urlSource,
    headers: { ...parseHeaders(env, 'OTEL_EXPORTER_OTLP_HEADERS'), ...parseHeaders(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') },
    protocol: protocolOf(env),
    timeoutMs: timeoutOf(env),
  };
}

function tracesUrl(flagUrl: string | undefined, env: NodeJS.ProcessEnv): { url: string; urlSource: string } {
  if (flagUrl !== undefined) {
    const parsed = parseUrl(flagUrl, '--to otlp=URL');
    // `http://collector:4318` and `http://collector:4318/` are base URLs; anything with a path is the traces URL.
    return { url: parsed.pathname === '/' ? relative(parsed, TRACES_PATH) : parsed.href, urlSource: '--to otlp=URL' };
  }
  const signal = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (signal !== undefined) {
    // Used as it is; a URL without a path goes to the root path, which URL parsing gives.
    return { url: parseUrl(signal, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT').href, urlSource: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  }
  const base = nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base !== undefined) return { url: relative(parseUrl(base, 'OTEL_EXPORTER_OTLP_ENDPOINT'), TRACES_PATH), urlSource: 'OTEL_EXPORTER_OTLP_ENDPOINT' };
  return { url: relative(new URL(DEFAULT_OTLP_BASE_URL), TRACES_PATH), urlSource: `the default ${DEFAULT_OTLP_BASE_URL}` };
}

/** `path` relative to the base URL made to end in a slash (the specification's suggested reading). */
function relative(base: URL, path: string): string {
  const directory = new URL(base.href);
  if (!directory.pathname.endsWith('/')) directory.pathname = `${directory.pathname}/`;
  return new URL(path, directory).href;
}

function parseUrl(text: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${source} must be an http(s) URL, e.g. http://127.0.0.1:4318 (got "${shownUrl(text)}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${source} must be an http(s) URL (got "${shownUrl(text)}")`);
  return url;
}

/**
 * `key1=value1,key2=value2` as W3C Baggage writes it (values percent-decoded, `;` properties not
 * supported). A malformed entry is a ConfigError naming the variable, never the value (headers
 * carry API keys).
 */
function parseHeaders(env: NodeJS.ProcessEnv, name: string): Record<string, string> {
  const text = nonEmpty(env[name]);
  if (text === undefined) return {};
  const headers: Record<string, string> = {};
  for (const [index, entry] of text.split(',').entries()) {
    if (entry.trim() === '') continue;
    const equals = entry.indexOf('=');
    const key = equals < 0 ? '' : entry.slice(0, equals).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) {
      throw new ConfigError(`${name}: entry ${index + 1} is not key=value (the format is key1=value1,key2=value2)`);
    }
    let value: string;
    try {
      value = decodeURIComponent(entry.slice(equals + 1).trim());
    } catch {
      throw new ConfigError(`${name}: the value of "${key}" has a malformed percent-encoding`);
    }
    headers[key.toLowerCase()] = value;
  }
  return headers;
}

function protocolOf(env: NodeJS.ProcessEnv): OtlpProtocol {
  const name = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = nonEmpty(env[name])?.trim() ?? 'http/protobuf';
  if (value === 'http/protobuf' || value === 'http/json') return value;
  if (value === 'grpc') throw new ConfigError(`${name}=grpc: Parley sends OTLP over HTTP only; set http/protobuf (port 4318) or http/json`);
  throw new ConfigError(`${name} must be http/protobuf or http/json (got "${value}")`);
}

function timeoutOf(env: NodeJS.ProcessEnv): number {
  const name = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT' : 'OTEL_EXPORTER_OTLP_TIMEOUT';
  const text = nonEmpty(env[name]);
  if (text === undefined) return DEFAULT_TIMEOUT_MS;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`${name} must be a positive whole number of milliseconds (got "${text}")`);
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** A URL as messages show it: without credentials written into it. */
export function shownUrl(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//');
}
