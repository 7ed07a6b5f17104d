import type { CallContext, CompletionRequest, CompletionResponse } from '@parley/core';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { fromAnthropicMessage, toAnthropicParams } from './anthropic-provider.js';
import { fromOpenAiCompletion, toOpenAiParams } from './openai-provider.js';
import { ProviderError } from './provider-error.js';
import { providerConnection, type LiveProviderSettings } from './live-provider.js';
import { connectTimeoutFromEnv, lazySdkClient, type SdkClientOptions } from './sdk-client.js';
import { toProviderError } from './sdk-errors.js';

/**
 * Batch APIs (OpenAI Batch, Anthropic Message Batches): many requests sent at once, answered
 * within 24 hours at half the price. Parley sends judge calls this way for `parley monitor --batch`.
 */

/** One request of a batch; `custom_id` is how its answer is found again (1–64 of a-z A-Z 0-9 _ -). */
interface BatchItem {
  custom_id: string;
  request: CompletionRequest;
}

/** A request's outcome in an ended batch: the provider's answer as it sent it, or why there is none. */
type BatchResult = { ok: true; body: unknown } | { ok: false; message: string };

type BatchPoll =
  /** Not finished: ask again later. */
  | { status: 'in_progress'; detail: string }
  /** Finished: an answer or an error per custom_id (requests missing from the results are errors). */
  | { status: 'ended'; results: Map<string, BatchResult> }
  /** The whole batch failed, expired or was cancelled: its requests must be sent again. */
  | { status: 'failed'; detail: string };

export interface BatchClient {
  /** Sends the requests as one batch; resolves to the provider's batch id. */
  submit(items: readonly BatchItem[]): Promise<string>;
  /** Where the batch is; when it has ended, its answers. */
  poll(batchId: string): Promise<BatchPoll>;
}

/**
 * A batch answer as the request's response: the provider's body read as a live call's would be
 * (`body` is what BatchResult kept). Throws a ProviderError for a body that is not an answer.
 */
export function batchResponse(kind: 'openai' | 'anthropic', body: unknown, request: CompletionRequest, context: CallContext): CompletionResponse {
  return kind === 'anthropic'
    ? fromAnthropicMessage(body as Anthropic.Messages.Message, request, 0, context)
    : fromOpenAiCompletion(body as OpenAI.Chat.Completions.ChatCompletion, 0, context);
}

const BATCH_CONTEXT: CallContext = { role: 'judge', scenario_id: '(batch)', turn: 0 };

/** The batch client for a provider kind, with the key and base URL taken as live calls take them. */
export function createBatchClient(settings: LiveProviderSettings, env: NodeJS.ProcessEnv): BatchClient {
  if (settings.kind !== 'openai' && settings.kind !== 'anthropic') {
    throw new ProviderError('http', `batch judging needs an openai or anthropic judge; ${settings.kind} has no batch API here`);
  }
  const { keyVariable, apiKey, baseURL } = providerConnection(settings, env);
  if (!apiKey) throw new ProviderError('missing_api_key', `${keyVariable} is not set: batch judging calls the provider`);
  const connectTimeoutMs = connectTimeoutFromEnv(env);
  const options: SdkClientOptions = {
    apiKey,
    ...(baseURL ? { baseURL } : {}),
    ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
    ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
  };
  return settings.kind === 'anthropic' ? anthropicBatchClient(options) : openAiBatchClient(options);
}

/** OpenAI: the requests as a JSONL file (`/v1/files`, purpose batch), then `/v1/batches` on it. */
export function openAiBatchClient(options: SdkClientOptions): BatchClient {
  const getClient = lazySdkClient(async () => (await import('openai')).default, options);
  return {
    async submit(items) {
      return sdk('openai', async () => {
        const openai = await getClient();
        const { toFile } = await import('openai');
        const lines = items.map((item) => JSON.stringify({ custom_id: item.custom_id, method: 'POST', url: '/v1/chat/completions', body: toOpenAiParams(item.request) }));
        const file = await openai.files.create({ file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'parley-judge-batch.jsonl'), purpose: 'batch' });
        const batch = await openai.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { source: 'parley monitor' } });
        return batch.id;
      });
    },
    async poll(batchId) {
      return sdk('openai', async () => {
        const openai = await getClient();
        const batch = await openai.batches.retrieve(batchId);
        if (batch.status === 'failed' || batch.status === 'expired' || batch.status === 'cancelled' || batch.status === 'cancelling') {
          return { status: 'failed', detail: `OpenAI batch ${batchId} is ${batch.status}` };
        }
        if (batch.status !== 'completed') return { status: 'in_progress', detail: `${batch.status}, ${batch.request_counts?.completed ?? 0} of ${batch.request_counts?.total ?? '?'} done` };
        const results = new Map<string, BatchResult>();
        for (const fileId of [batch.output_file_id, batch.error_file_id]) {
          if (!fileId) continue;
          const text = await (await openai.files.content(fileId)).text();
          for (const line of text.split('\n')) {
            if (line.trim() === '') continue;
            const entry = JSON.parse(line) as OpenAiBatchLine;
            results.set(entry.custom_id, openAiResult(entry));
          }
        }
        return { status: 'ended', results };
      });
    },
  };
}

interface OpenAiBatchLine {
  custom_id: string;
  response: { status_code: number; body: unknown } | null;
  error: { code?: string; message?: string } | null;
}

function openAiResult(entry: OpenAiBatchLine): BatchResult {
  if (entry.response?.status_code === 200) return { ok: true, body: entry.response.body };
  const body = entry.response?.body as { error?: { message?: string } } | undefined;
  return { ok: false, message: `HTTP ${entry.response?.status_code ?? '?'}: ${entry.error?.message ?? body?.error?.message ?? 'no answer'}` };
}

/** Anthropic: `/v1/messages/batches` with the Messages parameters of each request. */
export function anthropicBatchClient(options: SdkClientOptions): BatchClient {
  const getClient = lazySdkClient(async () => (await import('@anthropic-ai/sdk')).default, options);
  return {
    async submit(items) {
      return sdk('anthropic', async () => {
        const anthropic = await getClient();
        const batch = await anthropic.messages.batches.create({ requests: items.map((item) => ({ custom_id: item.custom_id, params: toAnthropicParams(item.request) })) });
        return batch.id;
      });
    },
    async poll(batchId) {
      return sdk('anthropic', async () => {
        const anthropic = await getClient();
        const batch = await anthropic.messages.batches.retrieve(batchId);
        if (batch.processing_status !== 'ended') {
          return { status: 'in_progress', detail: `${batch.processing_status}, ${batch.request_counts.processing} processing` };
        }
        const results = new Map<string, BatchResult>();
        for await (const entry of await anthropic.messages.batches.results(batchId)) {
          results.set(entry.custom_id, anthropicResult(entry.result));
        }
        return { status: 'ended', results };
      });
    },
  };
}

function anthropicResult(result: Anthropic.Messages.Batches.MessageBatchResult): BatchResult {
  if (result.type === 'succeeded') return { ok: true, body: result.message };
  if (result.type === 'errored') return { ok: false, message: `errored: ${result.error.error?.message ?? 'no message'}` };
  return { ok: false, message: result.type };
}

async function sdk<Result>(provider: string, call: () => Promise<Result>): Promise<Result> {
  try {
    return await call();
  } catch (error) {
    throw toProviderError(error, BATCH_CONTEXT, provider);
  }
}
