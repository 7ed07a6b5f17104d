/**
 * Enough of the providers' batch APIs for Parley's `monitor --batch`: OpenAI's Files + Batches
 * (`POST /v1/files`, `POST /v1/batches`, `GET /v1/batches/:id`, `GET /v1/files/:id/content`) and
 * Anthropic's Message Batches (`POST /v1/messages/batches`, `GET /v1/messages/batches/:id`,
 * `GET /v1/messages/batches/:id/results`). Each request of a batch is answered from the script when
 * the batch is created, but a batch stays `in_progress` until the test completes it
 * (`completeBatches()` or `POST /_fake/batches/complete`): the transition is the test's to make,
 * with no timer.
 */
import type { Clock } from '@parley/core';
import { buildAnthropicMessage } from './anthropic-response.js';
import { isRecord } from './json-value.js';
import { normaliseAnthropicRequest, normaliseOpenAiRequest } from './normalise-request.js';
import { buildOpenAiCompletion } from './openai-response.js';
import type { ScriptedResponder } from './scripted-responder.js';

export type BatchRoute =
  | { kind: 'openai-file-upload' }
  | { kind: 'openai-file-content'; id: string }
  | { kind: 'openai-batch-create' }
  | { kind: 'openai-batch-retrieve'; id: string }
  | { kind: 'anthropic-batch-create' }
  | { kind: 'anthropic-batch-retrieve'; id: string }
  | { kind: 'anthropic-batch-results'; id: string }
  | { kind: 'complete' };

/** A batch as tests see it. */
export interface FakeBatch {
  id: string;
  api: 'openai' | 'anthropic';
  status: 'in_progress' | 'completed' | 'expired';
  /** custom_id of each request, in order. */
  custom_ids: string[];
  /** The model of each request. */
  models: string[];
}

interface StoredBatch extends FakeBatch {
  createdAt: number;
  endedAt: number | null;
  /** One answer per request: `{custom_id, status, body}`. */
  answers: Array<{ custom_id: string; status: number; body: unknown }>;
  /** OpenAI: the input file and, once completed, the output file. */
  inputFileId?: string;
  outputFileId?: string;
}

export type BatchAnswer = { status: number; body: unknown; contentType?: string };

/** Matches a path to a batch route, or undefined when it is not one. */
export function batchRouteOf(method: string, path: string): BatchRoute | undefined {
  const clean = path.replace(/\/+$/, '').replace(/^\/v1(?=\/)/, '');
  if (method === 'POST' && clean === '/files') return { kind: 'openai-file-upload' };
  if (method === 'POST' && clean === '/batches') return { kind: 'openai-batch-create' };
  if (method === 'POST' && clean === '/messages/batches') return { kind: 'anthropic-batch-create' };
  if (method === 'POST' && clean === '/_fake/batches/complete') return { kind: 'complete' };
  let match = /^\/files\/([^/]+)\/content$/.exec(clean);
  if (method === 'GET' && match) return { kind: 'openai-file-content', id: decodeURIComponent(match[1]!) };
  match = /^\/batches\/([^/]+)$/.exec(clean);
  if (method === 'GET' && match) return { kind: 'openai-batch-retrieve', id: decodeURIComponent(match[1]!) };
  match = /^\/messages\/batches\/([^/]+)\/results$/.exec(clean);
  if (method === 'GET' && match) return { kind: 'anthropic-batch-results', id: decodeURIComponent(match[1]!) };
  match = /^\/messages\/batches\/([^/]+)$/.exec(clean);
  if (method === 'GET' && match) return { kind: 'anthropic-batch-retrieve', id: decodeURIComponent(match[1]!) };
  return undefined;
}

export class FakeBatches {
  private readonly files = new Map<string, { name: string; purpose: string; text: string; createdAt: number }>();
  private readonly batches = new Map<string, StoredBatch>();
  private sequence = 0;

  constructor(
    private readonly responder: ScriptedResponder,
    private readonly clock: Clock,
  ) {}

  /** Every batch created so far, oldest first. */
  list(): FakeBatch[] {
    return [...this.batches.values()].map(({ id, api, status, custom_ids, models }) => ({ id, api, status, custom_ids: [...custom_ids], models: [...models] }));
  }

  /** Moves every in-progress batch (or the named ones) to completed; returns how many moved. */
  complete(ids?: readonly string[]): number {
    let moved = 0;
    for (const batch of this.batches.values()) {
      if (batch.status !== 'in_progress' || (ids !== undefined && !ids.includes(batch.id))) continue;
      batch.status = 'completed';
      batch.endedAt = this.seconds();
      if (batch.api === 'openai') {
        const id = this.nextId('file-fake-');
        const lines = batch.answers.map((answer, index) =>
          JSON.stringify({
            id: `batch_req_${batch.id}_${index + 1}`,
            custom_id: answer.custom_id,
            response: { status_code: answer.status, request_id: `req_${batch.id}_${index + 1}`, body: answer.body },
            error: null,
          }),
        );
        this.files.set(id, { name: `${batch.id}_output.jsonl`, purpose: 'batch_output', text: `${lines.join('\n')}\n`, createdAt: this.seconds() });
        batch.outputFileId = id;
      }
      moved += 1;
    }
    return moved;
  }

  /**
   * Lets the batches in progress (all, or the named ones) run out of time: OpenAI's become
   * `expired` with no output file, Anthropic's end with every request `expired`. Returns how many.
   */
  expire(ids?: readonly string[]): number {
    let moved = 0;
    for (const batch of this.batches.values()) {
      if (batch.status !== 'in_progress' || (ids !== undefined && !ids.includes(batch.id))) continue;
      batch.status = 'expired';
      batch.endedAt = this.seconds();
      moved += 1;
    }
    return moved;
  }

  /** Answers one batch call. `baseUrl` is the server's (Anthropic's results_url is absolute). */
  async answer(route: BatchRoute, rawBody: string, headers: Record<string, string>, baseUrl: string): Promise<BatchAnswer> {
    switch (route.kind) {
      case 'complete': {
        const body = rawBody === '' ? {} : (JSON.parse(rawBody) as unknown);
        const ids = isRecord(body) && Array.isArray(body['ids']) ? body['ids'].map(String) : undefined;
        return { status: 200, body: { completed: this.complete(ids) } };
      }
      case 'openai-file-upload':
        return this.upload(rawBody, headers);
      case 'openai-file-content': {
        const file = this.files.get(route.id);
        if (!file) return openAiNotFound(`No such File object: ${route.id}`);
        return { status: 200, body: file.text, contentType: 'application/jsonl' };
      }
      case 'openai-batch-create':
        return this.createOpenAi(rawBody, headers);
      case 'openai-batch-retrieve': {
        const batch = this.batches.get(route.id);
        return batch?.api === 'openai' ? { status: 200, body: this.openAiView(batch) } : openAiNotFound(`No batch found with id '${route.id}'.`);
      }
      case 'anthropic-batch-create':
        return this.createAnthropic(rawBody, headers, baseUrl);
      case 'anthropic-batch-retrieve': {
        const batch = this.batches.get(route.id);
        return batch?.api === 'anthropic' ? { status: 200, body: this.anthropicView(batch, baseUrl) } : anthropicNotFound(route.id);
      }
      case 'anthropic-batch-results': {
        const batch = this.batches.get(route.id);
        if (batch?.api !== 'anthropic') return anthropicNotFound(route.id);
        if (batch.status === 'in_progress') return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: `Batch ${batch.id} has not ended yet` } } };
        const lines = batch.answers.map((answer) =>
          JSON.stringify({
            custom_id: answer.custom_id,
            result: batch.status === 'expired' ? { type: 'expired' } : answer.status === 200 ? { type: 'succeeded', message: answer.body } : { type: 'errored', error: answer.body },
          }),
        );
        return { status: 200, body: `${lines.join('\n')}\n`, contentType: 'application/binary' };
      }
    }
  }

  private async upload(rawBody: string, headers: Record<string, string>): Promise<BatchAnswer> {
    const type = headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data')) return { status: 400, body: { error: { message: 'fake-llm: upload files as multipart/form-data', type: 'invalid_request_error' } } };
    const form = await new Request('http://fake-llm/v1/files', { method: 'POST', headers: { 'content-type': type }, body: rawBody }).formData();
    const file = form.get('file');
    const purpose = String(form.get('purpose') ?? '');
    if (file === null || typeof file === 'string') return { status: 400, body: { error: { message: 'fake-llm: the form has no file', type: 'invalid_request_error' } } };
    const id = this.nextId('file-fake-');
    const text = await file.text();
    this.files.set(id, { name: file.name, purpose, text, createdAt: this.seconds() });
    return { status: 200, body: { id, object: 'file', bytes: Buffer.byteLength(text), created_at: this.seconds(), filename: file.name, purpose, status: 'processed', status_details: null } };
  }

  private createOpenAi(rawBody: string, headers: Record<string, string>): BatchAnswer {
    const body = safeJson(rawBody);
    const inputFileId = isRecord(body) ? String(body['input_file_id'] ?? '') : '';
    const file = this.files.get(inputFileId);
    if (!file) return openAiNotFound(`No such File object: ${inputFileId}`);
    if (!isRecord(body) || body['endpoint'] !== '/v1/chat/completions') {
      return { status: 400, body: { error: { message: 'fake-llm: batches support endpoint /v1/chat/completions only', type: 'invalid_request_error' } } };
    }
    const answers: StoredBatch['answers'] = [];
    const models: string[] = [];
    for (const [index, line] of file.text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const item = safeJson(line);
      if (!isRecord(item) || typeof item['custom_id'] !== 'string' || !isRecord(item['body'])) {
        return { status: 400, body: { error: { message: `fake-llm: line ${index + 1} of ${inputFileId} is not a batch request`, type: 'invalid_request_error' } } };
      }
      const normalised = normaliseOpenAiRequest(item['body'], headers);
      models.push(String(item['body']['model'] ?? ''));
      answers.push({ custom_id: item['custom_id'], ...this.scripted('openai', normalised) });
    }
    const batch: StoredBatch = { id: this.nextId('batch_fake_'), api: 'openai', status: 'in_progress', custom_ids: answers.map((answer) => answer.custom_id), models, createdAt: this.seconds(), endedAt: null, answers, inputFileId };
    this.batches.set(batch.id, batch);
    return { status: 200, body: this.openAiView(batch) };
  }

  private createAnthropic(rawBody: string, headers: Record<string, string>, baseUrl: string): BatchAnswer {
    const body = safeJson(rawBody);
    const requests = isRecord(body) && Array.isArray(body['requests']) ? body['requests'] : undefined;
    if (!requests || requests.length === 0) return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'requests: at least one request is required' } } };
    const answers: StoredBatch['answers'] = [];
    const models: string[] = [];
    for (const item of requests) {
      if (!isRecord(item) || typeof item['custom_id'] !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(item['custom_id']) || !isRecord(item['params'])) {
        return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'each request needs a custom_id (1-64 of a-z A-Z 0-9 _ -) and params' } } };
      }
      models.push(String(item['params']['model'] ?? ''));
      answers.push({ custom_id: item['custom_id'], ...this.scripted('anthropic', normaliseAnthropicRequest(item['params'], headers)) });
    }
    const batch: StoredBatch = { id: this.nextId('msgbatch_fake_'), api: 'anthropic', status: 'in_progress', custom_ids: answers.map((answer) => answer.custom_id), models, createdAt: this.seconds(), endedAt: null, answers };
    this.batches.set(batch.id, batch);
    return { status: 200, body: this.anthropicView(batch, baseUrl) };
  }

  /** The script's answer to one request of a batch; a scripted fault becomes that request's error. */
  private scripted(api: 'openai' | 'anthropic', normalised: ReturnType<typeof normaliseOpenAiRequest>): { status: number; body: unknown } {
    if (!normalised.ok) return { status: 400, body: errorBody(api, 'invalid_request_error', `fake-llm: ${normalised.message}`) };
    const outcome = this.responder.choose(normalised.request);
    this.sequence += 1;
    if (outcome.kind === 'unmatched') return { status: 400, body: errorBody(api, 'invalid_request_error', `fake-llm: no rule matched this ${api} batch request for model ${JSON.stringify(normalised.request.model)}`) };
    if (outcome.kind === 'fault') return { status: 500, body: errorBody(api, 'api_error', `fake-llm: scripted ${outcome.fault.kind} fault`) };
    return {
      status: 200,
      body: api === 'openai' ? buildOpenAiCompletion(outcome.reply, normalised.request, this.sequence) : buildAnthropicMessage(outcome.reply, normalised.request, this.sequence),
    };
  }

  private openAiView(batch: StoredBatch) {
    const failed = batch.answers.filter((answer) => answer.status !== 200).length;
    const done = batch.status === 'completed';
    return {
      id: batch.id,
      object: 'batch',
      endpoint: '/v1/chat/completions',
      errors: null,
      input_file_id: batch.inputFileId,
      completion_window: '24h',
      status: batch.status,
      output_file_id: done ? (batch.outputFileId ?? null) : null,
      error_file_id: null,
      created_at: batch.createdAt,
      in_progress_at: batch.createdAt,
      expires_at: batch.createdAt + 86_400,
      completed_at: done ? batch.endedAt : null,
      request_counts: { total: batch.answers.length, completed: done ? batch.answers.length - failed : 0, failed: done ? failed : 0 },
      metadata: null,
    };
  }

  private anthropicView(batch: StoredBatch, baseUrl: string) {
    const done = batch.status !== 'in_progress';
    const expired = batch.status === 'expired' ? batch.answers.length : 0;
    const errored = expired > 0 ? 0 : batch.answers.filter((answer) => answer.status !== 200).length;
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: batch.status === 'in_progress' ? 'in_progress' : 'ended',
      request_counts: { processing: done ? 0 : batch.answers.length, succeeded: done ? batch.answers.length - errored - expired : 0, errored: done ? errored : 0, canceled: 0, expired },
      ended_at: done ? new Date(batch.endedAt! * 1000).toISOString() : null,
      created_at: new Date(batch.createdAt * 1000).toISOString(),
      expires_at: new Date((batch.createdAt + 86_400) * 1000).toISOString(),
      archived_at: null,
      cancel_initiated_at: null,
      results_url: done ? `${baseUrl}/v1/messages/batches/${batch.id}/results` : null,
    };
  }

  private nextId(prefix: string): string {
    this.sequence += 1;
    return `${prefix}${String(this.sequence).padStart(6, '0')}`;
  }

  private seconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorBody(api: 'openai' | 'anthropic', type: string, message: string): unknown {
  return api === 'openai' ? { error: { message, type } } : { type: 'error', error: { type, message } };
}

function openAiNotFound(message: string): BatchAnswer {
  return { status: 404, body: { error: { message, type: 'invalid_request_error' } } };
}

function anthropicNotFound(id: string): BatchAnswer {
  return { status: 404, body: { type: 'error', error: { type: 'not_found_error', message: `No batch found with id ${id}` } } };
}
