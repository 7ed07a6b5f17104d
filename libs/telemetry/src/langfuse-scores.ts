import { setTimeout as wait } from 'node:timers/promises';
import { ExportError, refusedKeys } from './export-errors.js';
import { LANGFUSE_KEYS_HINT, langfuseAuthorization, shownLangfuse, type LangfuseTarget } from './langfuse-target.js';

/** One score as Langfuse's `POST /api/public/scores` takes it; Langfuse updates a score sent again under its id. */
export interface LangfuseScore {
  id: string;
  traceId?: string;
  sessionId?: string;
  name: string;
  value: number;
  dataType: 'NUMERIC' | 'BOOLEAN';
  comment?: string;
  metadata?: Record<string, unknown>;
  timestamp?: string;
  environment?: string;
}

export interface SendScoresOptions {
  /** Injected for tests; the platform's fetch otherwise. */
  fetch?: typeof fetch;
  /** Injected for tests so retries do not wait. */
  sleep?: (milliseconds: number) => Promise<void>;
  /** Attempts per score (429, 5xx and dropped connections are retried). */
  attempts?: number;
  /** Scores in flight at once. */
  concurrency?: number;
}

const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 10_000;

/**
 * Sends scores, each with retries (exponential backoff, honouring Retry-After). 401/403 is a
 * ConfigError naming the variables to check; another failure after the retries is an ExportError.
 */
export async function sendLangfuseScores(target: LangfuseTarget, scores: readonly LangfuseScore[], options: SendScoresOptions = {}): Promise<void> {
  const fetcher = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((milliseconds: number) => wait(milliseconds));
  const attempts = Math.max(1, options.attempts ?? 5);
  const url = `${target.baseUrl}/api/public/scores`;
  const headers = { authorization: langfuseAuthorization(target), 'content-type': 'application/json', accept: 'application/json' };
  const shown = shownLangfuse(target);

  const sendOne = async (score: LangfuseScore): Promise<void> => {
    let last = '';
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      let response: Response | undefined;
      try {
        response = await fetcher(url, { method: 'POST', headers, body: JSON.stringify(score) });
      } catch (error) {
        last = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      }
      if (response !== undefined) {
        if (response.ok) {
          await response.arrayBuffer();
          return;
        }
        const body = (await response.text()).slice(0, 200);
        if (response.status === 401 || response.status === 403) throw refusedKeys(shown, response.status, LANGFUSE_KEYS_HINT);
        if (response.status !== 429 && response.status < 500) throw new ExportError(`${shown} refused score ${score.name} (HTTP ${response.status}): ${body}`);
        last = `HTTP ${response.status}`;
        if (attempt < attempts) {
          await sleep(retryAfterMs(response.headers.get('retry-after')) ?? backoff(attempt));
          continue;
        }
      } else if (attempt < attempts) {
        await sleep(backoff(attempt));
        continue;
      }
    }
    throw new ExportError(`sending scores to ${shown} failed after ${attempts} attempts (${last})`);
  };

  const queue = [...scores];
  const workers = Array.from({ length: Math.min(queue.length, Math.max(1, options.concurrency ?? 8)) }, async () => {
    for (let score = queue.shift(); score !== undefined; score = queue.shift()) await sendOne(score);
  });
  await Promise.all(workers);
}

function backoff(attempt: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempt - 1));
}

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(RETRY_MAX_MS * 6, Math.max(0, seconds * 1000));
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
