import type { ModelRef } from '@parley/config';
import type { Clock, CompletionRequest, Provider } from '@parley/core';
import { batchResponse, ProviderError, requestKey, type BatchClient } from '@parley/providers';
import type { MonitorBatchStore } from '@parley/store';

/** A judge request that waits for a batch: the conversation is judged in a later run. */
export class BatchPendingError extends ProviderError {
  constructor() {
    super('http', 'the judge answer waits for a provider batch');
  }
}

/** A batch sent in this run, or one still in progress from an earlier run. */
export interface BatchState {
  batch_id: string;
  provider: string;
  model: string;
  requests: number;
  /** submitted (this run), in_progress (still), collected (this run), failed. */
  state: 'submitted' | 'in_progress' | 'collected' | 'failed';
  detail?: string;
}

interface NewRequest {
  model: ModelRef;
  request: CompletionRequest;
}

/**
 * Judge calls through the providers' batch APIs, resumable across runs. A judge request is
 * answered from a collected batch when one holds its request key (a later run asks the same
 * request, so it finds the answer); a request that waits in a batch still in progress, or that
 * no batch holds yet, fails with BatchPendingError, and `submit()` sends the new ones as one batch
 * per judge model. `collect()` asks the provider about every batch in progress and stores the
 * answers of those that ended. Batch ids and answers live in the monitor store, so a second
 * `parley monitor --batch` collects finished batches instead of sending the requests again.
 */
export class BatchJudging {
  private readonly fresh = new Map<string, NewRequest>();

  constructor(
    private readonly options: {
      suite: string;
      store: MonitorBatchStore;
      clientFor: (model: ModelRef) => BatchClient;
      clock: Clock;
      /**
       * The suite's judge models: a batch in progress is polled through the one of its provider and
       * model, with that model's base_url and key, where it was sent (the store keeps only provider
       * and model).
       */
      judgeModels?: readonly ModelRef[];
    },
  ) {}

  /** Polls the suite's batches in progress; stores the answers of those that ended. */
  async collect(): Promise<BatchState[]> {
    const { store, suite, clock } = this.options;
    const states: BatchState[] = [];
    for (const batch of store.inProgress(suite)) {
      const model: ModelRef = this.options.judgeModels?.find((known) => known.provider === batch.provider && known.model === batch.model) ?? { provider: batch.provider as ModelRef['provider'], model: batch.model };
      const poll = await this.options.clientFor(model).poll(batch.batch_id);
      const base = { batch_id: batch.batch_id, provider: batch.provider, model: batch.model, requests: batch.requests };
      if (poll.status === 'in_progress') states.push({ ...base, state: 'in_progress', detail: poll.detail });
      else if (poll.status === 'failed') {
        store.fail(batch.batch_id, clock.now().toISOString());
        states.push({ ...base, state: 'failed', detail: poll.detail });
      } else {
        const answers = [...poll.results].map(([key, result]) => (result.ok ? { request_key: key, body: JSON.stringify(result.body), error: null } : { request_key: key, body: null, error: result.message }));
        store.collect(batch.batch_id, clock.now().toISOString(), answers);
        states.push({ ...base, state: 'collected' });
      }
    }
    return states;
  }

  /** The judge model's provider: answers from collected batches, else BatchPendingError. */
  provider(model: ModelRef): Provider {
    const { store, suite } = this.options;
    return {
      complete: async (request, context) => {
        const key = requestKey(request);
        const answer = store.answer(suite, key);
        if (answer !== undefined) {
          if (answer.body === null) throw new ProviderError('http', `batch ${answer.batch_id}: ${answer.error ?? 'no answer'}`, { context });
          return batchResponse(answer.provider === 'anthropic' ? 'anthropic' : 'openai', JSON.parse(answer.body), request, context);
        }
        if (!store.isPending(suite, key)) this.fresh.set(key, { model, request });
        throw new BatchPendingError();
      },
    };
  }

  /** Requests asked in this run that no batch holds yet. */
  get unsent(): number {
    return this.fresh.size;
  }

  /** Sends the new requests, one batch per judge model, and records them. */
  async submit(): Promise<BatchState[]> {
    const groups = new Map<string, { model: ModelRef; items: Array<{ custom_id: string; request: CompletionRequest }> }>();
    for (const [key, item] of this.fresh) {
      const group = `${item.model.provider}\u0000${item.model.model}\u0000${item.model.base_url ?? ''}\u0000${item.model.api_key_env ?? ''}`;
      let entry = groups.get(group);
      if (!entry) groups.set(group, (entry = { model: item.model, items: [] }));
      entry.items.push({ custom_id: key, request: item.request });
    }
    this.fresh.clear();
    const states: BatchState[] = [];
    for (const { model, items } of groups.values()) {
      const batchId = await this.options.clientFor(model).submit(items);
      this.options.store.addBatch(
        { suite: this.options.suite, batch_id: batchId, provider: model.provider, model: model.model, submitted_at: this.options.clock.now().toISOString() },
        items.map((item) => item.custom_id),
      );
      states.push({ batch_id: batchId, provider: model.provider, model: model.model, requests: items.length, state: 'submitted' });
    }
    return states;
  }
}
