import { describe, expect, it } from 'vitest';
import { scrub, toProviderError } from './sdk-errors.js';

const context = { role: 'agent' as const, scenario_id: 's', turn: 1 };

describe('toProviderError', () => {
  it('keeps the status and Retry-After of an HTTP error', () => {
    const error = toProviderError(
      { name: 'RateLimitError', status: 429, message: '429 slow down', headers: new Headers({ 'retry-after': '3' }) },
      context,
      'openai',
    );
    expect(error.kind).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(3);
  });

  it('classifies timeouts and connection failures', () => {
    expect(toProviderError({ name: 'APIConnectionTimeoutError', message: 'timed out' }, context, 'openai').kind).toBe('timeout');
    expect(toProviderError({ name: 'APIConnectionError', message: 'ECONNREFUSED' }, context, 'anthropic').kind).toBe('connection');
  });
});

describe('scrub', () => {
  it('removes keys, bearer tokens and URL credentials from messages', () => {
    const text = scrub('failed https://user:pa55@host/v1 with sk-test-SECRET123456 and Bearer abc.def');
    expect(text).not.toMatch(/pa55|SECRET123456|abc\.def/);
  });
});
