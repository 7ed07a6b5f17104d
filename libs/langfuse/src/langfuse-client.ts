import { backoffDelayMs, realSleep, resolvedRetryPolicy, retryAfterSeconds, type RetryPolicy, type Sleep } from '@parley/providers';
import { LangfuseError, refusedLangfuseKeys } from './langfuse-errors.js';
import { langfuseAuthorization, shownLangfuse, type LangfuseTarget } from './langfuse-target.js';

export interface LangfuseClientOptions {
  /** Injected for tests; the platform's fetch otherwise. */
  fetch?: typeof fetch;
  /** Injected for tests so retries do not wait. */
  sleep?: Sleep;
  /** [0, 1): the retry jitter's source. */
  random?: () => number;
  /** Retries of 429, 5xx, 408 and dropped connections (the providers' policy and defaults). */
  retry?: RetryPolicy;
  /** Milliseconds; default: the target's (see langfuseFromEnv). */
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  /** Injected for tests: the clock the total timeout is measured on. */
  now?: () => number;
  /** Ctrl-C / SIGTERM: the call in flight is aborted and no retry starts (a LangfuseError of kind `stopped`). */
  signal?: AbortSignal;
}

/** The timeouts when neither the target nor the caller sets them. */
export const DEFAULT_LANGFUSE_TIMEOUTS = { connectTimeoutMs: 10_000, totalTimeoutMs: 120_000 } as const;

type Query = Record<string, string | undefined>;

export interface LangfuseClient {
  /** `Langfuse at <base URL>`, for messages (never with credentials). */
  readonly shown: string;
  /** GET a JSON answer; 404 is `undefined`, another refusal a LangfuseError. */
  find(path: string, query?: Query): Promise<unknown>;
  get(path: string, query?: Query): Promise<unknown>;
  post(path: string, body: unknown): Promise<unknown>;
  /** The `data` of every page of a list with numbered pages (`page`, `limit`, `meta.totalPages`). */
  pages(path: string, query: Query, limit: number): AsyncGenerator<unknown[]>;
  /**
   * The `data` of every page of a list with cursor pages (`meta.cursor`, Langfuse's v3 APIs);
   * `first` is the answer to the first page when the caller has read it already.
   */
  cursorPages(path: string, query: Query, first?: unknown): AsyncGenerator<unknown[]>;
}

/** Pages read at most from one list: a Langfuse that keeps answering the same cursor cannot loop us forever. */
const MAX_PAGES = 10_000;

/**
 * The one client of Langfuse's public API (promote's feedback reader, monitor's trace reader, the
 * export's score and dataset writer): HTTP Basic auth with the project's keys; retries of 429,
 * 5xx, 408 and dropped connections with the providers' policy (full-jitter exponential backoff,
 * at least the Retry-After Langfuse asks for); two timeouts, each named when it fires: the
 * connect timeout (no answer, not even its headers, within it: the attempt is abandoned and
 * retried) and the total timeout (the whole call, retries and waits included). Refused keys are a
 * ConfigError naming the variables to check; every other failure is a LangfuseError. No message
 * ever holds the keys: they are blanked from whatever Langfuse or the network said.
 */
export function langfuseClient(target: LangfuseTarget, options: LangfuseClientOptions = {}): LangfuseClient {
  const fetcher = options.fetch ?? fetch;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const policy = resolvedRetryPolicy(options.retry);
  const connectTimeoutMs = options.connectTimeoutMs ?? target.connectTimeoutMs ?? DEFAULT_LANGFUSE_TIMEOUTS.connectTimeoutMs;
  const totalTimeoutMs = options.totalTimeoutMs ?? target.totalTimeoutMs ?? DEFAULT_LANGFUSE_TIMEOUTS.totalTimeoutMs;
  const base = target.baseUrl.replace(/\/+$/, '');
  const shown = shownLangfuse(target);
  const shownBase = shown.slice('Langfuse at '.length);
  const authorization = langfuseAuthorization(target);
  const hide = (text: string): string =>
    [target.secretKey, target.publicKey, authorization.slice('Basic '.length)].reduce((result, secret) => (secret ? result.split(secret).join('<secret>') : result), text);

  async function call(method: 'GET' | 'POST', path: string, query: Query, body: unknown, allow404: boolean): Promise<unknown> {
    const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
    const url = `${base}${path}${search !== '' ? `?${search}` : ''}`;
    const what = `${method} ${path}`;
    const deadline = now() + totalTimeoutMs;
    const totalTimeout = () => new LangfuseError('timeout', `${shown} did not finish ${what} within ${totalTimeoutMs} ms (the total timeout, PARLEY_LANGFUSE_TIMEOUT_MS)`);
    const stopped = () => new LangfuseError('stopped', `${what} to ${shown} stopped by ${String(options.signal?.reason ?? 'a signal')}`);
    for (let attempt = 1; ; attempt += 1) {
      if (options.signal?.aborted) throw stopped();
      const left = deadline - now();
      if (left <= 0) throw totalTimeout();
      const controller = new AbortController();
      let fired: 'connect' | 'total' | undefined;
      const abort = (which: 'connect' | 'total') => () => {
        fired = which;
        controller.abort();
      };
      const connectTimer = connectTimeoutMs < left ? setTimeout(abort('connect'), connectTimeoutMs) : undefined;
      const totalTimer = setTimeout(abort('total'), left);
      const onSignal = () => controller.abort();
      options.signal?.addEventListener('abort', onSignal, { once: true });
      let failure: string;
      let kind: 'timeout' | 'unreachable' | 'http' = 'http';
      let retryAfter: number | undefined;
      try {
        let response: Response;
        try {
          response = await fetcher(url, {
            method,
            headers: { authorization, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
            signal: controller.signal,
          });
        } finally {
          clearTimeout(connectTimer);
        }
        const text = await response.text();
        if (response.status === 401 || response.status === 403) throw refusedLangfuseKeys(shown, response.status);
        if (response.status === 404 && allow404) return undefined;
        if (response.ok) {
          if (text.trim() === '') return {};
          try {
            return JSON.parse(text) as unknown;
          } catch {
            throw new LangfuseError('not_api', `${shown} answered ${what} with something that is not JSON (${hide(text.slice(0, 80))}): is ${shownBase} a Langfuse?`);
          }
        }
        const message = `${shown} answered HTTP ${response.status} to ${what}${detailOf(hide(text))}`;
        if (!retryable(response.status)) throw new LangfuseError('http', message, response.status);
        failure = message;
        retryAfter = retryAfterSeconds((name) => response.headers.get(name));
      } catch (error) {
        if (!isNetworkFailure(error)) throw error;
        if (options.signal?.aborted) throw stopped();
        if (fired === 'total') throw totalTimeout();
        kind = fired === 'connect' ? 'timeout' : 'unreachable';
        failure =
          fired === 'connect'
            ? `${shown} did not answer ${what} within ${connectTimeoutMs} ms (the connect timeout, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS)`
            : `cannot reach Langfuse at ${shownBase}${path}: ${hide(causeOf(error))}`;
      } finally {
        clearTimeout(totalTimer);
        options.signal?.removeEventListener('abort', onSignal);
      }
      if (attempt > policy.maxRetries) throw new LangfuseError(kind, `${failure} (gave up after ${attempt} attempts)`);
      const wait = backoffDelayMs(attempt, policy, random(), retryAfter);
      if (now() + wait >= deadline) throw totalTimeout();
      try {
        await sleep(wait, options.signal);
      } catch (error) {
        if (options.signal?.aborted) throw stopped();
        throw error;
      }
    }
  }

  return {
    shown,
    find: (path, query = {}) => call('GET', path, query, undefined, true),
    get: (path, query = {}) => call('GET', path, query, undefined, false),
    post: (path, body) => call('POST', path, {}, body, false),
    async *pages(path, query, limit) {
      for (let page = 1; page <= MAX_PAGES; page += 1) {
        const answer = record(await call('GET', path, { ...query, page: String(page), limit: String(limit) }, undefined, false));
        const data = dataOf(answer, path);
        yield data;
        const totalPages = Number(record(answer?.['meta'])?.['totalPages']);
        if (data.length < limit || !Number.isFinite(totalPages) || page >= totalPages) return;
      }
    },
    async *cursorPages(path, query, first) {
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (let count = 0; count < MAX_PAGES; count += 1) {
        const answer = record(count === 0 && first !== undefined ? first : await call('GET', path, { ...query, ...(cursor !== undefined ? { cursor } : {}) }, undefined, false));
        yield dataOf(answer, path);
        const next = record(answer?.['meta'])?.['cursor'];
        if (typeof next !== 'string' || next === '' || seen.has(next)) return;
        seen.add(next);
        cursor = next;
      }
    },
  };

  function dataOf(answer: Record<string, unknown> | undefined, path: string): unknown[] {
    const data = answer?.['data'];
    if (!Array.isArray(data)) throw new LangfuseError('not_api', `${shown} answered GET ${path} without a "data" list: is ${shownBase} a Langfuse?`);
    return data;
  }
}

/** What Langfuse said when it refused: the `message` of its JSON error, else the start of the text. */
function detailOf(text: string): string {
  if (text.trim() === '') return '';
  try {
    const message: unknown = Reflect.get(JSON.parse(text) as object, 'message');
    if (typeof message === 'string') return `: ${message.slice(0, 300)}`;
  } catch {
    // not JSON
  }
  return `: ${text.slice(0, 200)}`;
}

function retryable(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/** A failure of the request itself (refused, reset, aborted by a timeout), as opposed to an answer. */
function isNetworkFailure(error: unknown): error is Error {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError' || error instanceof TypeError);
}

function causeOf(error: Error): string {
  const cause: unknown = error.cause;
  return cause instanceof Error ? cause.message : error.message;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
