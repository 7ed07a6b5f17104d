import { ProviderError } from '@parley/providers';
import { expect } from 'vitest';

/** The ProviderError a promise rejects with (the test fails when it resolves or rejects with something else). */
export async function providerFailure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
