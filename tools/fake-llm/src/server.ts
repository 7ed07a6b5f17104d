/**
 * The fake LLM server: node:http on 127.0.0.1 speaking OpenAI Chat Completions, the OpenAI Responses
 * API and Anthropic Messages (non-streaming), answering from a script, plus a few `/_fake/*` control endpoints.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock, type Clock } from '@parley/core';
import { buildAnthropicError, buildAnthropicMessage } from './anthropic-response.js';
import { applyFault } from './apply-fault.js';
import { batchRouteOf, FakeBatches, type BatchRoute, type FakeBatch } from './batch-endpoints.js';
import { answerControl, type ControlRoute } from './control-endpoints.js';
import { parseBody, readBody, sendJson, type ParsedBody } from './http-json.js';
import { asString, isRecord } from './json-value.js';
import { loadFakeScript, parseFakeScript } from './load-fake-script.js';
import { normaliseAnthropicRequest, normaliseOpenAiRequest, type NormaliseResult, type NormalisedRequest } from './normalise-request.js';
import { buildOpenAiCompletion, buildOpenAiError } from './openai-response.js';
import { normaliseResponsesRequest } from './normalise-responses-request.js';
import { buildResponsesResponse } from './responses-response.js';
import { flattenHeaders, redactHeaders } from './redact-headers.js';
import { RequestLog, type LoggedRequest } from './request-log.js';
import { padSequence } from './response-ids.js';
import type { ApiKind, FakeScript } from './script-schema.js';
import { ScriptedResponder } from './scripted-responder.js';

export interface FakeLlmOptions {
  /** The script, or the path of a .yaml/.json file holding it. Default: no rules (every call gets 400). */
  script?: FakeScript | string;
  /** 0 (the default) picks any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Append every settled request of the log to this file as one JSON line. */
  logFile?: string;
  /** Source of the log's `at` timestamps. */
  clock?: Clock;
  /** Waits out `latency_ms`; tests inject one that records the delay instead of sleeping. */
  wait?: (milliseconds: number, signal: AbortSignal) => Promise<void>;
  /**
   * Called as each provider call arrives, before it is answered: lets a test act at the moment
   * the client is waiting (e.g. close the server under a hung call) without polling.
   */
  onRequest?: (entry: LoggedRequest) => void;
}

export interface FakeLlmServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `url + '/v1'`, the `baseURL` the openai SDK takes. */
  openaiBaseUrl: string;
  /** `url`; the Anthropic SDK posts to `baseURL + '/v1/messages'`. */
  anthropicBaseUrl: string;
  /** Every request received, in order (the same array across resets). */
  readonly requests: LoggedRequest[];
  /** Replaces the script and restarts every rule counter. @throws ConfigError when invalid. */
  setScript(script: FakeScript): void;
  /** Empties the request log. */
  resetLog(): void;
  /** Every batch (OpenAI Batch, Anthropic Message Batches) created so far. */
  batches(): FakeBatch[];
  /**
   * Moves the batches in progress (all, or the named ones) to completed / ended, so their results
   * can be read: the one transition a test makes, with no timer. Returns how many moved.
   */
  completeBatches(ids?: readonly string[]): number;
  /** Lets the batches in progress (all, or the named ones) expire instead. Returns how many. */
  expireBatches(ids?: readonly string[]): number;
  /** Stops listening and destroys every open connection, hung ones included. */
  close(): Promise<void>;
}

type Route = { kind: 'provider'; api: ApiKind } | { kind: 'control'; control: ControlRoute } | { kind: 'batch'; route: BatchRoute };

interface ServerState {
  responder: ScriptedResponder;
  batches: FakeBatches;
  log: RequestLog;
  clock: Clock;
  wait: (milliseconds: number, signal: AbortSignal) => Promise<void>;
  onRequest: (entry: LoggedRequest) => void;
  /** Aborted by close(), so pending latencies stop waiting for connections that are gone. */
  closing: AbortController;
}

/**
 * Starts the server and resolves once it listens.
 *
 * @example
 * const fake = await startFakeLlm({ script: { rules: [{ reply: { content: 'Karibu!' } }] } });
 * const openai = new OpenAI({ baseURL: fake.openaiBaseUrl, apiKey: 'sk-test' });
 * @throws ConfigError when the script (file or value) is invalid.
 */
export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlmServer> {
  const script =
    typeof options.script === 'string' ? loadFakeScript(options.script) : parseFakeScript(options.script ?? {}, 'startFakeLlm script');
  const responder = new ScriptedResponder(script);
  const clock = options.clock ?? systemClock;
  const state: ServerState = {
    responder,
    batches: new FakeBatches(responder, clock),
    log: new RequestLog(options.logFile),
    clock,
    wait: options.wait ?? ((milliseconds, signal) => sleep(milliseconds, undefined, { signal })),
    onRequest: options.onRequest ?? (() => {}),
    closing: new AbortController(),
  };
  const server = createServer((request, response) => {
    void handleRequest(state, request, response);
  });
  const host = options.host ?? '127.0.0.1';
  await listen(server, options.port ?? 0, host);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake-llm: the server has no TCP address');
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    requests: state.log.entries,
    setScript: (nextScript) => state.responder.replaceScript(parseFakeScript(nextScript, 'setScript')),
    resetLog: () => state.log.clear(),
    batches: () => state.batches.list(),
    completeBatches: (ids) => state.batches.complete(ids),
    expireBatches: (ids) => state.batches.expire(ids),
    close: () => {
      closed ??= new Promise<void>((resolve, reject) => {
        state.closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function handleRequest(state: ServerState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const rawBody = await readBody(request);
    const route = routeOf(request.method ?? 'GET', new URL(request.url ?? '/', 'http://fake-llm').pathname);
    if (route.kind === 'provider') {
      await answerProviderCall(state, route.api, request, response, rawBody);
    } else if (route.kind === 'batch') {
      await answerBatchCall(state, route.route, request, response, rawBody);
    } else {
      answerControlCall(state, route.control, request, response, rawBody);
    }
  } catch (error) {
    if (state.closing.signal.aborted) return;
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const message = `fake-llm internal error: ${error instanceof Error ? error.message : String(error)}`;
    sendJson(response, 500, { error: { message, type: 'server_error' } });
  }
}

/** Both the documented paths and the same without `/v1`, for clients given the bare server URL. */
function routeOf(method: string, path: string): Route {
  const route = `${method} ${path.replace(/\/+$/, '')}`;
  if (route === 'POST /v1/chat/completions' || route === 'POST /chat/completions') return { kind: 'provider', api: 'openai' };
  if (route === 'POST /v1/responses' || route === 'POST /responses') return { kind: 'provider', api: 'openai-responses' };
  if (route === 'POST /v1/messages' || route === 'POST /messages') return { kind: 'provider', api: 'anthropic' };
  if (route === 'GET /v1/models' || route === 'GET /models') return { kind: 'control', control: 'models' };
  if (route === 'GET /_fake/requests') return { kind: 'control', control: 'requests' };
  if (route === 'POST /_fake/reset') return { kind: 'control', control: 'reset' };
  if (route === 'PUT /_fake/script') return { kind: 'control', control: 'script' };
  const batch = batchRouteOf(method, path);
  if (batch !== undefined) return { kind: 'batch', route: batch };
  return { kind: 'control', control: 'not-found' };
}

/** A batch call: answered by FakeBatches, logged like the others (its body too, a JSONL upload as text). */
async function answerBatchCall(state: ServerState, route: BatchRoute, request: IncomingMessage, response: ServerResponse, rawBody: string): Promise<void> {
  const headers = flattenHeaders(request.headers);
  const api = route.kind === 'complete' ? 'control' : route.kind.startsWith('anthropic') ? 'anthropic' : 'openai';
  const body = parseBody(rawBody);
  const entry = state.log.add({
    at: state.clock.now().toISOString(),
    api,
    method: request.method ?? 'GET',
    path: request.url ?? '',
    model: null,
    headers: redactHeaders(headers),
    body: body.value,
    rule: null,
    status: null,
    fault: null,
  });
  const host = request.headers.host ?? '127.0.0.1';
  const answer = await state.batches.answer(route, rawBody, headers, `http://${host}`);
  if (typeof answer.body === 'string') {
    response.writeHead(answer.status, { 'content-type': answer.contentType ?? 'text/plain', 'content-length': String(Buffer.byteLength(answer.body)) });
    response.end(answer.body);
  } else sendJson(response, answer.status, answer.body);
  state.log.settle(entry, { status: answer.status, rule: null, fault: null });
}

async function answerProviderCall(
  state: ServerState,
  api: ApiKind,
  request: IncomingMessage,
  response: ServerResponse,
  rawBody: string,
): Promise<void> {
  const body = parseBody(rawBody);
  const headers = flattenHeaders(request.headers);
  const entry = state.log.add({
    at: state.clock.now().toISOString(),
    api,
    method: request.method ?? 'POST',
    path: request.url ?? '',
    model: isRecord(body.value) ? (asString(body.value['model']) ?? null) : null,
    headers: redactHeaders(headers),
    body: body.value,
    rule: null,
    status: null,
    fault: null,
  });
  state.onRequest(entry);
  const requestId = `req_fake_${padSequence(entry.seq)}`;
  const idHeader: Record<string, string> = api === 'anthropic' ? { 'request-id': requestId } : { 'x-request-id': requestId };
  const sendError = (status: number, message: string, extraHeaders: Record<string, string> = {}) => {
    const payload = api === 'anthropic' ? buildAnthropicError(status, requestId, message) : buildOpenAiError(status, message);
    sendJson(response, status, payload, { ...idHeader, ...extraHeaders });
  };

  const normalised = normaliseBody(api, body, headers);
  if (!normalised.ok) {
    sendError(400, `fake-llm: ${normalised.message}`);
    state.log.settle(entry, { status: 400, rule: null, fault: null });
    return;
  }

  const outcome = state.responder.choose(normalised.request);
  if (outcome.latencyMs > 0) {
    try {
      await state.wait(outcome.latencyMs, state.closing.signal);
    } catch (error) {
      if (state.closing.signal.aborted) return;
      throw error;
    }
  }

  switch (outcome.kind) {
    case 'fault': {
      const status = applyFault(outcome.fault, { api, request, response, sequence: entry.seq, sendError });
      state.log.settle(entry, { status, rule: outcome.rule, fault: outcome.fault.kind });
      return;
    }
    case 'unmatched':
      sendError(400, describeUnmatched(normalised.request));
      state.log.settle(entry, { status: 400, rule: null, fault: null });
      return;
    case 'reply': {
      const answer =
        api === 'openai'
          ? buildOpenAiCompletion(outcome.reply, normalised.request, entry.seq)
          : api === 'openai-responses'
            ? buildResponsesResponse(outcome.reply, normalised.request, entry.seq)
            : buildAnthropicMessage(outcome.reply, normalised.request, entry.seq);
      sendJson(response, 200, answer, idHeader);
      state.log.settle(entry, { status: 200, rule: outcome.rule, fault: null });
      return;
    }
  }
}

/** The request for matching, or why the fake cannot answer it at all. */
function normaliseBody(api: ApiKind, body: ParsedBody, headers: Record<string, string>): NormaliseResult {
  if (!body.isJson) return { ok: false, message: 'the request body is not valid JSON' };
  // An SDK asking for a stream would wait for server-sent events; a clear 400 beats a confusing parse error.
  if (isRecord(body.value) && body.value['stream'] === true) {
    return { ok: false, message: 'streaming is not supported; send stream: false' };
  }
  if (api === 'openai-responses') return normaliseResponsesRequest(body.value, headers);
  return api === 'openai' ? normaliseOpenAiRequest(body.value, headers) : normaliseAnthropicRequest(body.value, headers);
}

/** Names the last user message, which is what a script author needs to write the missing rule. */
function describeUnmatched(request: NormalisedRequest): string {
  const lastUser = request.messages.findLast((message) => message.role === 'user');
  const shown = lastUser === undefined ? '(none)' : JSON.stringify(lastUser.content.slice(0, 200));
  return `fake-llm: no rule matched this ${request.api} request for model ${JSON.stringify(request.model)}; last user message: ${shown}`;
}

function answerControlCall(
  state: ServerState,
  control: ControlRoute,
  request: IncomingMessage,
  response: ServerResponse,
  rawBody: string,
): void {
  const body = parseBody(rawBody);
  const [status, payload] = answerControl(control, body, {
    responder: state.responder,
    entries: state.log.entries,
    clearLog: () => state.log.clear(),
    method: request.method ?? 'GET',
    url: request.url ?? '',
  });
  sendJson(response, status, payload);
  // A reset is not logged: it empties the log it would be written to.
  if (control === 'reset') return;
  const entry = state.log.add({
    at: state.clock.now().toISOString(),
    api: 'control',
    method: request.method ?? 'GET',
    path: request.url ?? '',
    model: null,
    headers: redactHeaders(flattenHeaders(request.headers)),
    body: body.value,
    rule: null,
    status: null,
    fault: null,
  });
  state.log.settle(entry, { status, rule: null, fault: null });
}
