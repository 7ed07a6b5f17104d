import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export interface FakeLangfuseOptions {
  /** 0 (the default) takes any free port. */
  port?: number;
  publicKey: string;
  secretKey: string;
  scores: FakeScore[];
  /** Answer 404 on `/api/public/v3/scores`, as Langfuse deployments older than v3.179 do. */
  legacyOnly?: boolean;
}

export interface FakeLangfuse {
  url: string;
  /** Every request: path, query, and whether its credentials were right (never the credentials). */
  requests: Array<{ path: string; query: Record<string, string>; authorised: boolean; status: number }>;
  close(): Promise<void>;
}

const V3_FIELD_GROUPS = new Set(['details', 'subject', 'annotation']);

/**
 * A local server speaking the parts of Langfuse's public API that `parley promote` reads:
 * `GET /api/public/v3/scores` (cursor pages, typed values, field groups) and the older
 * `GET /api/public/scores` (numbered pages), both behind basic auth with the project's public
 * and secret key. Validation follows the API: `limit` above 100 and unknown field groups are 400.
 */
export async function startFakeLangfuse(options: FakeLangfuseOptions): Promise<FakeLangfuse> {
  const requests: FakeLangfuse['requests'] = [];
  const expected = `Basic ${Buffer.from(`${options.publicKey}:${options.secretKey}`).toString('base64')}`;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams.entries());
    const authorised = request.headers.authorization === expected;
    const send = (status: number, body: unknown): void => {
      requests.push({ path: url.pathname, query, authorised, status });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET') return send(405, { message: 'method not allowed' });
    if (!authorised) return send(401, { message: 'Invalid credentials. Confirm that you\'ve configured the correct host.' });
    const limit = Number(query['limit'] ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return send(400, { message: 'limit must be between 1 and 100' });
    const selected = options.scores
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
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
