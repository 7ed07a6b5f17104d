import type { CallContext } from '@parley/core';
import { withCallSignal } from './call-signal.js';
import { toProviderError } from './sdk-errors.js';

export interface SdkClientOptions {
  apiKey: string;
  baseURL?: string;
  timeoutMs?: number;
}

/** What both SDKs' client constructors accept of ours. */
interface SdkConstructorOptions {
  apiKey: string;
  baseURL?: string;
  timeout: number;
  maxRetries: number;
}

type SdkConstructor<Client> = new (options: SdkConstructorOptions) => Client;

/**
 * A client made on first use: the SDK module is imported then, so replay runs and commands that
 * make no live call never load it. The SDK's own retries are off: retrying is our wrapper's job.
 */
export function lazySdkClient<Client>(loadConstructor: () => Promise<SdkConstructor<Client>>, options: SdkClientOptions): () => Promise<Client> {
  let client: Promise<Client> | undefined;
  return () =>
    (client ??= loadConstructor().then(
      (Constructor) =>
        new Constructor({
          apiKey: options.apiKey,
          ...(options.baseURL ? { baseURL: options.baseURL } : {}),
          timeout: options.timeoutMs ?? 60_000,
          maxRetries: 0,
        }),
    ));
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
