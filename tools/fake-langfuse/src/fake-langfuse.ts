import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeDatasets, type FakeDataset, type FakeDatasetItem, type FakeDatasetRun } from './fake-datasets.js';
import { matchEndpoint, shapeProblem } from './public-api-shapes.js';

/** A score as the fake stores it; served in the shape of each API version. */
export interface FakeScore {
  id: string;
  name: string;
  dataType: 'NUMERIC' | 'BOOLEAN' | 'CATEGORICAL';
  value: number | boolean | string;
  timestamp: string;
  comment?: string;
  traceId?: string;
  sessionId?: string;
}

/** An observation as the fake keeps it: one per span id, later sends of the same id replacing it. */
export interface FakeObservation {
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  /** The span's attributes as plain values (strings, numbers, booleans, arrays). */
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
}

/** A trace as the fake keeps it: one per trace id, holding its observations by span id. */
export interface FakeTrace {
  traceId: string;
  /** The root span's `langfuse.trace.name`, else its span name. */
  name: string;
  observations: FakeObservation[];
}

/**
 * A production trace as an agent's Langfuse SDK leaves it (what `parley monitor --from langfuse`
 * reads): served by `GET /api/public/traces` (without observations, ids only) and
 * `GET /api/public/traces/{id}` (with them).
 */
export interface FakeProductionTrace {
  id: string;
  timestamp: string;
  name?: string;
  sessionId?: string;
  metadata?: Record<string, unknown>;
  input?: unknown;
  output?: unknown;
  observations?: Array<{ id: string; type: 'GENERATION' | 'SPAN' | 'EVENT'; name?: string; startTime: string; endTime?: string; model?: string; input?: unknown; output?: unknown }>;
}

/** Answer the next `times` requests to `path` with `status` (retries, outages, refused keys). */
export interface FakeFault {
  path: string;
  status: number;
  times: number;
  retryAfter?: string;
}

export interface FakeLangfuseOptions {
  /** 0 (the default) takes any free port. */
  port?: number;
  publicKey: string;
  secretKey: string;
  scores: FakeScore[];
  /** Answer 404 on `/api/public/v3/scores`, as Langfuse deployments older than v3.179 do. */
  legacyOnly?: boolean;
  faults?: FakeFault[];
  /** Production traces to serve on the traces API. */
  productionTraces?: FakeProductionTrace[];
}

export interface FakeLangfuse {
  url: string;
  /** Every request: path, query, and whether its credentials were right (never the credentials). */
  requests: Array<{ path: string; query: Record<string, string>; authorised: boolean; status: number }>;
  /** Traces received on the OTLP endpoint, deduplicated by trace id and span id as Langfuse does. */
  traces(): FakeTrace[];
  /** Every score: the initial ones and those received, one per id (a score sent again replaces it). */
  scores(): FakeScore[];
  /** Datasets, their items, and dataset runs with their run items. */
  datasets(): { datasets: FakeDataset[]; items: FakeDatasetItem[]; runs: FakeDatasetRun[] };
  close(): Promise<void>;
}

const V3_FIELD_GROUPS = new Set(['details', 'subject', 'annotation']);

/**
 * A local server speaking the parts of Langfuse's public API that Parley uses, behind basic auth
 * with the project's public and secret key: the OTLP traces endpoint (OTLP/JSON), scores (create;
 * `GET /api/public/v3/scores` with cursor pages, typed values and field groups; the older numbered
 * `GET /api/public/scores`), traces (list and get, for monitor), datasets, dataset items and
 * dataset runs. It is strict as the API's definitions are (public-api-shapes.ts): an unknown
 * query parameter or body field is 400, as are `limit` above 100 and unknown field groups.
 */
export async function startFakeLangfuse(options: FakeLangfuseOptions): Promise<FakeLangfuse> {
  const requests: FakeLangfuse['requests'] = [];
  const scores = new Map(options.scores.map((score) => [score.id, score]));
  const traces = new Map<string, Map<string, FakeObservation>>();
  const faults = (options.faults ?? []).map((fault) => ({ ...fault }));
  const productionTraces = options.productionTraces ?? [];
  const datasets = new FakeDatasets();
  const expected = `Basic ${Buffer.from(`${options.publicKey}:${options.secretKey}`).toString('base64')}`;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handle(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  const handle = (request: IncomingMessage, response: ServerResponse, body: string): void => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams.entries());
    const authorised = request.headers.authorization === expected;
    const send = (status: number, answer: unknown, headers: Record<string, string> = {}): void => {
      requests.push({ path: url.pathname, query, authorised, status });
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(answer));
    };
    const fault = faults.find((candidate) => candidate.path === url.pathname && candidate.times > 0);
    if (fault) {
      fault.times -= 1;
      return send(fault.status, { message: `fault injected: HTTP ${fault.status}` }, fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {});
    }
    if (!authorised) return send(401, { message: 'Invalid credentials. Confirm that you\'ve configured the correct host.' });
    const endpoint = matchEndpoint(request.method ?? 'GET', url.pathname);
    if (!endpoint) return send(404, { message: 'Not found' });
    let json: unknown;
    if (endpoint.shape.body !== undefined) {
      try {
        json = JSON.parse(body);
      } catch {
        return send(400, { message: 'the body is not JSON' });
      }
    }
    const problem = shapeProblem(endpoint, url.searchParams, json);
    if (problem !== undefined) return send(400, { message: problem });
    const page = Number(query['page'] ?? 1);
    const answered = (answer: { status: number; body: unknown }) => send(answer.status, answer.body);
    switch (endpoint.shape.path) {
      case '/api/public/v2/datasets':
        return answered(request.method === 'POST' ? datasets.createDataset(json as Record<string, unknown>) : datasets.listDatasets(page, Number(query['limit'] ?? 50)));
      case '/api/public/v2/datasets/{datasetName}':
        return answered(datasets.getDataset(endpoint.params['datasetName']!));
      case '/api/public/dataset-items':
        return answered(request.method === 'POST' ? datasets.upsertItem(json as Record<string, unknown>) : datasets.listItems(query['datasetName'], page, Number(query['limit'] ?? 50)));
      case '/api/public/dataset-items/{id}':
        return answered(datasets.getItem(endpoint.params['id']!));
      case '/api/public/dataset-run-items':
        return answered(request.method === 'POST' ? datasets.createRunItem(json as Record<string, unknown>) : datasets.listRunItems(query['datasetId'], query['runName'], page, Number(query['limit'] ?? 50)));
      case '/api/public/datasets/{datasetName}/runs':
        return answered(datasets.listRuns(endpoint.params['datasetName']!, page, Number(query['limit'] ?? 50)));
      case '/api/public/datasets/{datasetName}/runs/{runName}':
        return answered(datasets.getRun(endpoint.params['datasetName']!, endpoint.params['runName']!));
      default:
        break;
    }
    if (request.method === 'POST' && url.pathname === '/api/public/otel/v1/traces') {
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) return send(415, { message: 'the fake reads OTLP/JSON only' });
      const spans = otlpSpans(body);
      if (spans === undefined) return send(400, { message: 'not an OTLP ExportTraceServiceRequest' });
      for (const { traceId, observation } of spans) {
        const observations = traces.get(traceId) ?? new Map<string, FakeObservation>();
        observations.set(observation.spanId, observation);
        traces.set(traceId, observations);
      }
      return send(200, {});
    }
    if (request.method === 'POST' && url.pathname === '/api/public/scores') {
      const score = postedScore(body);
      if (typeof score === 'string') return send(400, { message: score });
      scores.set(score.id, score);
      return send(200, { id: score.id });
    }
    if (request.method !== 'GET') return send(405, { message: 'method not allowed' });
    const limit = Number(query['limit'] ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return send(400, { message: 'limit must be between 1 and 100' });
    const traceMatch = /^\/api\/public\/traces\/([^/]+)$/.exec(url.pathname);
    if (traceMatch) {
      const trace = productionTraces.find((candidate) => candidate.id === decodeURIComponent(traceMatch[1]!));
      return trace ? send(200, traceView(trace, true)) : send(404, { message: 'Trace not found' });
    }
    if (url.pathname === '/api/public/traces') {
      const pageNumber = Number(query['page'] ?? 1);
      const from = query['fromTimestamp'] === undefined ? -Infinity : Date.parse(query['fromTimestamp']);
      const to = query['toTimestamp'] === undefined ? Infinity : Date.parse(query['toTimestamp']);
      const ascending = query['orderBy'] === 'timestamp.asc';
      const selected = productionTraces
        .filter((trace) => Date.parse(trace.timestamp) >= from && Date.parse(trace.timestamp) < to)
        .sort((left, right) => (ascending ? 1 : -1) * (Date.parse(left.timestamp) - Date.parse(right.timestamp)) || (left.id < right.id ? -1 : 1));
      return send(200, {
        data: selected.slice((pageNumber - 1) * limit, pageNumber * limit).map((trace) => traceView(trace, false)),
        meta: { page: pageNumber, limit, totalItems: selected.length, totalPages: Math.ceil(selected.length / limit) },
      });
    }
    const selected = [...scores.values()]
      .filter((score) => query['name'] === undefined || query['name'].split(',').includes(score.name))
      .filter((score) => query['fromTimestamp'] === undefined || Date.parse(score.timestamp) >= Date.parse(query['fromTimestamp']))
      .sort((left, right) => Date.parse(right.timestamp) - Date.parse(left.timestamp) || (left.id < right.id ? -1 : 1));

    if (url.pathname === '/api/public/v3/scores') {
      if (options.legacyOnly) return send(404, { message: 'Not found' });
      const fields = (query['fields'] ?? '').split(',').filter((field) => field !== '');
      const unknown = fields.find((field) => !V3_FIELD_GROUPS.has(field));
      if (unknown !== undefined) return send(400, { message: `unknown field group "${unknown}"` });
      const offset = query['cursor'] === undefined ? 0 : Number(Buffer.from(query['cursor'], 'base64url').toString('utf8'));
      const page = selected.slice(offset, offset + limit);
      const next = offset + limit < selected.length ? Buffer.from(String(offset + limit)).toString('base64url') : undefined;
      return send(200, { data: page.map((score) => v3Score(score, new Set(fields))), meta: { limit, ...(next !== undefined ? { cursor: next } : {}) } });
    }
    if (url.pathname === '/api/public/scores') {
      const pageNumber = Number(query['page'] ?? 1);
      const page = selected.slice((pageNumber - 1) * limit, pageNumber * limit);
      return send(200, {
        data: page.map(v1Score),
        meta: { page: pageNumber, limit, totalItems: selected.length, totalPages: Math.ceil(selected.length / limit) },
      });
    }
    return send(404, { message: 'Not found' });
  };
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    traces: () =>
      [...traces.entries()].map(([traceId, observations]) => {
        const list = [...observations.values()];
        const root = list.find((observation) => observation.parentSpanId === undefined);
        const name = root?.attributes['langfuse.trace.name'];
        return { traceId, name: typeof name === 'string' ? name : (root?.name ?? ''), observations: list };
      }),
    scores: () => [...scores.values()],
    datasets: () => datasets.snapshot(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A trace as the traces API shows it: the list has observation ids, the single trace the observations. */
function traceView(trace: FakeProductionTrace, withObservations: boolean) {
  return {
    id: trace.id,
    projectId: 'project-ratiba',
    name: trace.name ?? null,
    timestamp: trace.timestamp,
    environment: 'production',
    sessionId: trace.sessionId ?? null,
    userId: null,
    metadata: trace.metadata ?? {},
    tags: [],
    input: trace.input ?? null,
    output: trace.output ?? null,
    observations: withObservations
      ? (trace.observations ?? []).map((observation) => ({ traceId: trace.id, name: null, model: null, input: null, output: null, endTime: null, ...observation }))
      : (trace.observations ?? []).map((observation) => observation.id),
    scores: [],
    htmlPath: `/project/project-ratiba/traces/${trace.id}`,
  };
}

function common(score: FakeScore) {
  return {
    id: score.id,
    projectId: 'project-ratiba',
    name: score.name,
    source: 'API',
    timestamp: score.timestamp,
    environment: 'production',
    createdAt: score.timestamp,
    updatedAt: score.timestamp,
    dataType: score.dataType,
  };
}

function v3Score(score: FakeScore, fields: Set<string>) {
  const subject = score.sessionId !== undefined ? { kind: 'session', id: score.sessionId } : { kind: 'trace', id: score.traceId ?? '' };
  return {
    ...common(score),
    value: score.value,
    ...(fields.has('details') ? { comment: score.comment ?? null, configId: null, metadata: {} } : {}),
    ...(fields.has('subject') ? { subject } : {}),
  };
}

function v1Score(score: FakeScore) {
  return {
    ...common(score),
    traceId: score.traceId ?? null,
    sessionId: score.sessionId ?? null,
    observationId: null,
    value: typeof score.value === 'number' ? score.value : typeof score.value === 'boolean' ? Number(score.value) : null,
    stringValue: typeof score.value === 'string' ? score.value : null,
    comment: score.comment ?? null,
  };
}

/** The spans of an OTLP/JSON ExportTraceServiceRequest, or undefined when it is not one. */
function otlpSpans(body: string): Array<{ traceId: string; observation: FakeObservation }> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const resourceSpans = record(parsed)?.['resourceSpans'];
  if (!Array.isArray(resourceSpans)) return undefined;
  const spans: Array<{ traceId: string; observation: FakeObservation }> = [];
  for (const resource of resourceSpans) {
    const scopeSpans = record(resource)?.['scopeSpans'];
    for (const scope of Array.isArray(scopeSpans) ? scopeSpans : []) {
      const list = record(scope)?.['spans'];
      for (const span of Array.isArray(list) ? list : []) {
        const fields = record(span);
        const traceId = fields?.['traceId'];
        const spanId = fields?.['spanId'];
        if (typeof traceId !== 'string' || !/^[0-9a-f]{32}$/.test(traceId) || typeof spanId !== 'string' || !/^[0-9a-f]{16}$/.test(spanId)) return undefined;
        const parent = fields?.['parentSpanId'];
        const events = fields?.['events'];
        spans.push({
          traceId,
          observation: {
            spanId,
            ...(typeof parent === 'string' && parent !== '' ? { parentSpanId: parent } : {}),
            name: String(fields?.['name'] ?? ''),
            startTimeUnixNano: String(fields?.['startTimeUnixNano'] ?? ''),
            endTimeUnixNano: String(fields?.['endTimeUnixNano'] ?? ''),
            attributes: attributesOf(fields?.['attributes']),
            events: (Array.isArray(events) ? events : []).map((event) => ({ name: String(record(event)?.['name'] ?? ''), attributes: attributesOf(record(event)?.['attributes']) })),
          },
        });
      }
    }
  }
  return spans;
}

function attributesOf(list: unknown): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const item of Array.isArray(list) ? list : []) {
    const key = record(item)?.['key'];
    if (typeof key === 'string') attributes[key] = anyValue(record(item)?.['value']);
  }
  return attributes;
}

function anyValue(value: unknown): unknown {
  const fields = record(value);
  if (fields === undefined) return undefined;
  if ('stringValue' in fields) return fields['stringValue'];
  if ('boolValue' in fields) return fields['boolValue'];
  if ('intValue' in fields) return Number(fields['intValue']);
  if ('doubleValue' in fields) return Number(fields['doubleValue']);
  const array = record(fields['arrayValue'])?.['values'];
  if (Array.isArray(array)) return array.map(anyValue);
  return undefined;
}

/** A score of `POST /api/public/scores`, or why it is not one (Langfuse answers 400 then). */
function postedScore(body: string): FakeScore | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'the body is not JSON';
  }
  const fields = record(parsed);
  if (fields === undefined) return 'the body is not an object';
  const { id, name, value, dataType, comment, traceId, sessionId, datasetRunId } = fields;
  if (typeof name !== 'string' || name === '') return 'name is required';
  if (typeof value !== 'number' && typeof value !== 'string') return 'value is required';
  if (typeof traceId !== 'string' && typeof sessionId !== 'string' && typeof datasetRunId !== 'string') return 'a score needs a traceId, a sessionId or a datasetRunId';
  const type = dataType === 'BOOLEAN' || dataType === 'CATEGORICAL' ? dataType : 'NUMERIC';
  if (type === 'BOOLEAN' && value !== 0 && value !== 1) return 'a BOOLEAN score has value 0 or 1';
  return {
    id: typeof id === 'string' && id !== '' ? id : `score-${Math.random().toString(16).slice(2)}`,
    name,
    dataType: type,
    value,
    // The score API takes no time: Langfuse stamps a score when it takes it.
    timestamp: new Date().toISOString(),
    ...(typeof comment === 'string' ? { comment } : {}),
    ...(typeof traceId === 'string' ? { traceId } : {}),
    ...(typeof sessionId === 'string' ? { sessionId } : {}),
    ...(record(fields['metadata']) !== undefined ? { metadata: record(fields['metadata']) } : {}),
  };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
