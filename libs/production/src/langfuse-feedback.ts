import { ConfigError } from '@parley/core';
import { FEEDBACK_SCORE_NAME, makeFeedback, type Feedback } from './feedback.js';

/** A self-hosted Langfuse and the project keys of its public API (basic auth: public key, secret key). */
export interface LangfuseSettings {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
}

export interface LangfuseFeedbackOptions {
  /** Only scores at or after this time (`fromTimestamp`). */
  since?: Date;
  /** Injected for tests; the platform's fetch otherwise. */
  fetch?: typeof fetch;
  /** Scores per page (the API allows at most 100). */
  pageSize?: number;
}

/** A score as either API version describes it; only the fields Parley reads. */
interface ScoreRecord {
  id?: unknown;
  name?: unknown;
  value?: unknown;
  stringValue?: unknown;
  dataType?: unknown;
  comment?: unknown;
  timestamp?: unknown;
  traceId?: unknown;
  sessionId?: unknown;
  subject?: { kind?: unknown; id?: unknown; traceId?: unknown } | null;
}

const MAX_PAGES = 10_000;

/**
 * Reads the `user_feedback` scores of a self-hosted Langfuse through its public API. Langfuse v4
 * serves `GET /api/public/v3/scores` (cursor pages) and answers 404 on the older endpoints; older
 * deployments only have `GET /api/public/scores` (numbered pages). The v3 endpoint is tried first
 * and the older one used when it is not there. A score's conversation is its session, else its
 * trace (one trace per conversation, as the agents we read log them).
 *
 * Every problem (unreachable, keys refused, an answer that is not the API's) is a ConfigError
 * naming the URL, never the keys.
 */
export async function fetchLangfuseFeedback(settings: LangfuseSettings, options: LangfuseFeedbackOptions = {}): Promise<Feedback[]> {
  const client = langfuseRequester(settings, options.fetch ?? fetch);
  const pageSize = Math.min(100, Math.max(1, options.pageSize ?? 100));
  const filters: Record<string, string> = { name: FEEDBACK_SCORE_NAME, limit: String(pageSize) };
  if (options.since) filters['fromTimestamp'] = options.since.toISOString();

  const first = await client.get('/api/public/v3/scores', { ...filters, fields: 'details,subject' });
  if (first.status !== 404) {
    const scores: ScoreRecord[] = [];
    let page = first;
    const seen = new Set<string>();
    for (let count = 0; count < MAX_PAGES; count += 1) {
      const body = client.expectPage(page);
      scores.push(...body.data);
      const cursor = typeof body.meta?.['cursor'] === 'string' ? body.meta['cursor'] : undefined;
      if (cursor === undefined || cursor === '' || seen.has(cursor)) break;
      seen.add(cursor);
      page = await client.get('/api/public/v3/scores', { ...filters, fields: 'details,subject', cursor });
    }
    return toFeedback(scores);
  }

  const scores: ScoreRecord[] = [];
  for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber += 1) {
    const body = client.expectPage(await client.get('/api/public/scores', { ...filters, page: String(pageNumber) }));
    scores.push(...body.data);
    const totalPages = Number(body.meta?.['totalPages']);
    if (body.data.length === 0 || !Number.isFinite(totalPages) || pageNumber >= totalPages) break;
  }
  return toFeedback(scores);
}

function toFeedback(scores: readonly ScoreRecord[]): Feedback[] {
  const feedback: Feedback[] = [];
  for (const score of scores) {
    if (score.name !== FEEDBACK_SCORE_NAME) continue;
    const conversationId = conversationOf(score);
    if (conversationId === undefined) continue;
    const raw = typeof score.stringValue === 'string' && score.stringValue !== '' ? score.stringValue : score.value;
    // The older API writes booleans as 0/1, which would read as neutral/positive numbers.
    const typed = score.dataType === 'BOOLEAN' && typeof raw === 'number' ? raw !== 0 : raw;
    const value = typeof typed === 'number' || typeof typed === 'string' || typeof typed === 'boolean' ? typed : null;
    const at = typeof score.timestamp === 'string' ? new Date(score.timestamp) : undefined;
    const traceId = traceOf(score);
    feedback.push(
      makeFeedback({
        conversationId,
        ...(traceId !== undefined ? { traceId } : {}),
        value,
        ...(typeof score.comment === 'string' && score.comment !== '' ? { comment: score.comment } : {}),
        ...(at ? { at } : {}),
        source: `langfuse score ${typeof score.id === 'string' ? score.id : '?'}`,
      }),
    );
  }
  return feedback;
}

function conversationOf(score: ScoreRecord): string | undefined {
  const subject = score.subject;
  if (subject && typeof subject.id === 'string') {
    if (subject.kind === 'observation') return typeof subject.traceId === 'string' ? subject.traceId : undefined;
    if (subject.kind === 'session' || subject.kind === 'trace') return subject.id;
  }
  if (typeof score.sessionId === 'string' && score.sessionId !== '') return score.sessionId;
  if (typeof score.traceId === 'string' && score.traceId !== '') return score.traceId;
  return undefined;
}

function traceOf(score: ScoreRecord): string | undefined {
  const subject = score.subject;
  if (subject?.kind === 'trace' && typeof subject.id === 'string') return subject.id;
  if (subject && typeof subject.traceId === 'string') return subject.traceId;
  return typeof score.traceId === 'string' && score.traceId !== '' ? score.traceId : undefined;
}

interface Answer {
  status: number;
  url: string;
  text: string;
}

function langfuseRequester(settings: LangfuseSettings, fetcher: typeof fetch) {
  const base = settings.baseUrl.replace(/\/+$/, '');
  const shownBase = base.replace(/\/\/[^/@]*@/, '//');
  const authorization = `Basic ${Buffer.from(`${settings.publicKey}:${settings.secretKey}`).toString('base64')}`;
  const hide = (text: string): string =>
    [settings.secretKey, settings.publicKey, authorization].reduce((result, secret) => (secret ? result.split(secret).join('<secret>') : result), text);

  return {
    async get(path: string, query: Record<string, string>): Promise<Answer> {
      const url = `${base}${path}?${new URLSearchParams(query).toString()}`;
      const shown = `${shownBase}${path}`;
      let response: Response;
      try {
        response = await fetcher(url, { headers: { authorization, accept: 'application/json' } });
      } catch (error) {
        const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
        throw new ConfigError(`cannot reach Langfuse at ${shown}: ${hide(cause)}`);
      }
      const text = await response.text();
      if (response.status === 401 || response.status === 403) {
        throw new ConfigError(`Langfuse at ${shownBase} refused the keys (HTTP ${response.status}): check LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY`);
      }
      return { status: response.status, url: shown, text };
    },
    expectPage(answer: Answer): { data: ScoreRecord[]; meta: Record<string, unknown> | undefined } {
      if (answer.status < 200 || answer.status > 299) {
        throw new ConfigError(`Langfuse answered HTTP ${answer.status} for ${answer.url}: ${hide(answer.text.slice(0, 300))}`);
      }
      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        throw new ConfigError(`Langfuse answered ${answer.url} with something that is not JSON: ${hide(answer.text.slice(0, 120))}`);
      }
      const data: unknown = body !== null && typeof body === 'object' ? Reflect.get(body, 'data') : undefined;
      if (!Array.isArray(data)) throw new ConfigError(`Langfuse answered ${answer.url} without a "data" list: is ${shownBase} a Langfuse?`);
      const meta: unknown = Reflect.get(body as object, 'meta');
      return {
        data: data.filter((item): item is ScoreRecord => item !== null && typeof item === 'object'),
        meta: meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>) : undefined,
      };
    },
  };
}
