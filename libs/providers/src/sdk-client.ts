import { ConfigError, type CallContext } from '@parley/core';
import { withCallSignal } from './call-signal.js';
import type { Dispatcher, request as undiciRequest } from 'undici';
import { toProviderError } from './sdk-errors.js';

export interface SdkClientOptions {
  apiKey: string;
  baseURL?: string;
  /** The whole call (the SDK's `timeout`); default 60 s. */
  timeoutMs?: number;
  /** Setting up the connection (TCP, and TLS for https); default {@link DEFAULT_CONNECT_TIMEOUT_MS}, or `PARLEY_CONNECT_TIMEOUT_MS`. */
  connectTimeoutMs?: number;
}

/** A provider host that does not take the connection within this long is not going to: the call fails, naming the timeout. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** What both SDKs' client constructors accept of ours. */
interface SdkConstructorOptions {
  apiKey: string;
  baseURL?: string;
  timeout: number;
  maxRetries: number;
  fetch: (url: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

type SdkConstructor<Client> = new (options: SdkConstructorOptions) => Client;

/**
 * A client made on first use: the SDK module is imported then, so replay runs and commands that
 * make no live call never load it. The SDK's own retries are off: retrying is our wrapper's job.
 *
 * Its requests go through undici with a connect timeout of their own (an undici Agent's
 * `connect.timeout`): a host that never takes the connection (a firewall that drops it, a
 * wrong address) fails after `connectTimeoutMs`, long before the call's whole timeout, and the
 * error names that timeout and how to change it. Only the connection is bounded so: a
 * non-streamed completion sends nothing until it is done, so waiting for an answer is the
 * call's timeout's job.
 */
export function lazySdkClient<Client>(loadConstructor: () => Promise<SdkConstructor<Client>>, options: SdkClientOptions): () => Promise<Client> {
  let client: Promise<Client> | undefined;
  return () =>
    (client ??= Promise.all([loadConstructor(), connectTimeoutFetch(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS)]).then(
      ([Constructor, fetch]) =>
        new Constructor({
          apiKey: options.apiKey,
          ...(options.baseURL ? { baseURL: options.baseURL } : {}),
          timeout: options.timeoutMs ?? 60_000,
          maxRetries: 0,
          fetch,
        }),
    ));
}

/**
 * `PARLEY_CONNECT_TIMEOUT_MS` from the environment (a whole number of milliseconds), or undefined
 * when it is not set; any other value is a ConfigError naming the variable.
 */
export function connectTimeoutFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const text = env.PARLEY_CONNECT_TIMEOUT_MS;
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) throw new ConfigError(`PARLEY_CONNECT_TIMEOUT_MS must be a whole number of milliseconds above 0, got "${text}"`);
  return value;
}

/** An error code of ours that {@link toProviderError} turns into a `timeout` naming the connect timeout. */
const CONNECT_TIMEOUT_CODE = 'PARLEY_CONNECT_TIMEOUT';

/**
 * `fetch` through an undici Agent whose connections time out after `connectTimeoutMs`; a connect
 * timeout comes out as an error with code {@link CONNECT_TIMEOUT_CODE} and a message that names
 * the timeout and `PARLEY_CONNECT_TIMEOUT_MS`.
 *
 * A call with a text or byte body (every completion; a batch's status and results) goes through
 * undici's `request` and its answer, read whole, becomes a `Response`: undici's `fetch` runs each
 * call through the WHATWG fetch algorithm and web streams, which cost about 0.15–0.25 ms of CPU
 * more per call (measured with the OpenAI SDK against a local server), paid on every call of a
 * live run. Redirects are followed as fetch follows them; no `accept-encoding` is sent, so answers
 * come uncompressed. Any other body (a batch's uploaded file, FormData) goes through `fetch`.
 */
async function connectTimeoutFetch(connectTimeoutMs: number): Promise<SdkConstructorOptions['fetch']> {
  const loaded = await import('undici');
  // Bundled into the CLI, the CommonJS module may arrive as the namespace's default export.
  const undici = (loaded.Agent === undefined ? (loaded as unknown as { default: typeof loaded }).default : loaded) as typeof loaded;
  const dispatcher = new undici.Agent({ connect: { timeout: connectTimeoutMs } });
  const requestDispatcher = dispatcher.compose(undici.interceptors.redirect({ maxRedirections: 20 }));
  const fetch: SdkConstructorOptions['fetch'] = async (url, init) => {
    try {
      const body = init?.body;
      if (!(url instanceof Request) && (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array)) {
        return await requestAsResponse(undici.request, requestDispatcher, String(url), init, body ?? undefined);
      }
      // undici's own fetch with its own Agent: Node's built-in fetch may be another undici version.
      const sent = body instanceof FormData ? undiciFormData(body, undici.FormData) : body;
      const options = { ...init, ...(sent !== undefined ? { body: sent } : {}), dispatcher } as Parameters<typeof undici.fetch>[1];
      return (await undici.fetch(url as Parameters<typeof undici.fetch>[0], options)) as unknown as Response;
    } catch (error) {
      if (causeCode(error) === 'UND_ERR_CONNECT_TIMEOUT') {
        // The message the user sees is kept aside: an SDK reads "timeout" in a fetch error's text as
        // its own call timeout and drops the error, so the thrown text must not say it.
        throw Object.assign(new Error('no connection was made'), {
          code: CONNECT_TIMEOUT_CODE,
          explanation: `did not take the connection within ${connectTimeoutMs} ms (the connect timeout, PARLEY_CONNECT_TIMEOUT_MS)`,
        });
      }
      throw error;
    }
  };
  // The OpenAI SDK asks a custom fetch's `Response` whether it can send the global FormData (file
  // uploads: batch input files). It can: such a body is copied into undici's FormData above.
  return Object.assign(fetch, { Response });
}

/** Statuses whose response has no body (a `Response` refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** One call through undici's `request`, its whole answer read and handed back as a `Response`. */
async function requestAsResponse(
  request: typeof undiciRequest,
  dispatcher: Dispatcher,
  url: string,
  init: RequestInit | undefined,
  body: string | Uint8Array | undefined,
): Promise<Response> {
  const answer = await request(url, {
    method: (init?.method ?? 'GET') as Dispatcher.HttpMethod,
    headers: headerPairs(init?.headers),
    ...(body !== undefined ? { body } : {}),
    ...(init?.signal ? { signal: init.signal } : {}),
    dispatcher,
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.append(name, value);
  }
  const empty = NULL_BODY_STATUSES.has(answer.statusCode) || init?.method === 'HEAD';
  const bytes = empty ? (await answer.body.dump(), null) : new Uint8Array(await answer.body.arrayBuffer());
  return new Response(bytes, { status: answer.statusCode, headers });
}

/** A request's headers as name/value pairs (whatever form `RequestInit.headers` took). */
function headerPairs(headers: RequestInit['headers']): string[] {
  const pairs: string[] = [];
  if (headers === undefined) return pairs;
  const entries = headers instanceof Headers ? headers.entries() : Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [name, value] of entries) if (value !== undefined) pairs.push(name!, String(value));
  return pairs;
}

/** The global FormData's fields in undici's FormData class (the body undici's fetch knows how to send). */
function undiciFormData<Form extends { append(name: string, value: string | Blob, fileName?: string): void }>(form: FormData, UndiciFormData: new () => Form): Form {
  const copy = new UndiciFormData();
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') copy.append(name, value);
    else copy.append(name, value, value.name);
  }
  return copy;
}

/** The first `code` along an error's causes. */
function causeCode(error: unknown): string | undefined {
  for (let cause: unknown = error, depth = 0; cause !== null && typeof cause === 'object' && depth < 5; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** One SDK call with its own abort signal, any failure turned into a ProviderError. */
export async function callSdk<Client, Result>(
  getClient: () => Promise<Client>,
  signal: AbortSignal | undefined,
  context: CallContext,
  provider: string,
  call: (client: Client, signal: AbortSignal | undefined) => Promise<Result>,
): Promise<Result> {
  try {
    const client = await getClient();
    return await withCallSignal(signal, (callSignal) => call(client, callSignal));
  } catch (error) {
    throw toProviderError(error, context, provider);
  }
}
