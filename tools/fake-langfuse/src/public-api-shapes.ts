/**
 * The request shapes of the endpoints the fake serves, as Langfuse's public API defines them (its
 * Fern definitions, fern/apis/server/definition/*.yml in langfuse/langfuse: the query parameters
 * of each endpoint and the properties of each request body). The fake refuses anything else with
 * 400, as a strict server would, so a field Langfuse would drop or reject fails a test here.
 */
export interface EndpointShape {
  method: 'GET' | 'POST';
  /** The path with `{name}` for a path parameter. */
  path: string;
  query: readonly string[];
  /** Properties of the JSON body (POST only). */
  body?: readonly string[];
}

const PAGE = ['page', 'limit'];

export const ENDPOINTS: readonly EndpointShape[] = [
  { method: 'POST', path: '/api/public/otel/v1/traces', query: [] },
  // scores.yml CreateScoreRequest
  {
    method: 'POST',
    path: '/api/public/scores',
    query: [],
    body: ['id', 'traceId', 'sessionId', 'observationId', 'datasetRunId', 'name', 'value', 'comment', 'metadata', 'environment', 'queueId', 'dataType', 'configId', 'source'],
  },
  // scores-v3.yml getManyV3
  {
    method: 'GET',
    path: '/api/public/v3/scores',
    query: ['limit', 'cursor', 'fields', 'id', 'name', 'source', 'dataType', 'environment', 'configId', 'queueId', 'authorUserId', 'value', 'valueMin', 'valueMax', 'traceId', 'sessionId', 'observationId', 'experimentId', 'fromTimestamp', 'toTimestamp'],
  },
  // The numbered score list of deployments without the v3 API (scores.yml GetScoresRequest).
  {
    method: 'GET',
    path: '/api/public/scores',
    query: [...PAGE, 'userId', 'name', 'fromTimestamp', 'toTimestamp', 'environment', 'source', 'operator', 'value', 'scoreIds', 'configId', 'sessionId', 'datasetRunId', 'traceId', 'observationId', 'queueId', 'dataType', 'traceTags', 'fields', 'filter'],
  },
  // trace.yml list and get
  { method: 'GET', path: '/api/public/traces', query: [...PAGE, 'userId', 'name', 'sessionId', 'fromTimestamp', 'toTimestamp', 'orderBy', 'tags', 'version', 'release', 'environment', 'fields', 'filter'] },
  { method: 'GET', path: '/api/public/traces/{traceId}', query: ['fields'] },
  // datasets.yml
  { method: 'POST', path: '/api/public/v2/datasets', query: [], body: ['name', 'description', 'metadata', 'inputSchema', 'expectedOutputSchema'] },
  { method: 'GET', path: '/api/public/v2/datasets', query: PAGE },
  { method: 'GET', path: '/api/public/v2/datasets/{datasetName}', query: [] },
  { method: 'GET', path: '/api/public/datasets/{datasetName}/runs', query: PAGE },
  { method: 'GET', path: '/api/public/datasets/{datasetName}/runs/{runName}', query: [] },
  // dataset-items.yml
  { method: 'POST', path: '/api/public/dataset-items', query: [], body: ['datasetName', 'input', 'expectedOutput', 'metadata', 'sourceTraceId', 'sourceObservationId', 'id', 'status'] },
  { method: 'GET', path: '/api/public/dataset-items', query: ['datasetName', 'sourceTraceId', 'sourceObservationId', 'version', ...PAGE] },
  { method: 'GET', path: '/api/public/dataset-items/{id}', query: [] },
  // dataset-run-items.yml
  {
    method: 'POST',
    path: '/api/public/dataset-run-items',
    query: [],
    body: ['runName', 'runDescription', 'metadata', 'datasetItemId', 'observationId', 'traceId', 'datasetVersion', 'createdAt'],
  },
  { method: 'GET', path: '/api/public/dataset-run-items', query: ['datasetId', 'runName', ...PAGE] },
];

export interface MatchedEndpoint {
  shape: EndpointShape;
  /** Path parameters by name, decoded. */
  params: Record<string, string>;
}

/** The endpoint a request is for, or undefined when the fake does not serve it (404). */
export function matchEndpoint(method: string, pathname: string): MatchedEndpoint | undefined {
  for (const shape of ENDPOINTS) {
    if (shape.method !== method) continue;
    const names: string[] = [];
    const pattern = new RegExp(`^${shape.path.replace(/\{(\w+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
    const found = pattern.exec(pathname);
    if (found) return { shape, params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1]!)])) };
  }
  return undefined;
}

/** Why the request does not fit the endpoint's shape (an unknown query parameter or body field), or undefined. */
export function shapeProblem(endpoint: MatchedEndpoint, query: URLSearchParams, body: unknown): string | undefined {
  const where = `${endpoint.shape.method} ${endpoint.shape.path}`;
  for (const key of query.keys()) {
    if (!endpoint.shape.query.includes(key)) return `unknown query parameter "${key}" for ${where}`;
  }
  if (endpoint.shape.body === undefined) return undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return `the body of ${where} must be a JSON object`;
  for (const key of Object.keys(body)) {
    if (!endpoint.shape.body.includes(key)) return `unknown field "${key}" in the body of ${where}`;
  }
  return undefined;
}
