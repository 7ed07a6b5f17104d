import { describe, expect, it } from 'vitest';
import { providerServer } from './provider-server.js';

describe('providerServer: the host and port an export names for a provider endpoint', () => {
  it('takes the base URL first, then the environment, then the SDK default, and keeps host and port only', () => {
    expect(providerServer('openai-compatible', 'http://bot:s3cret@10.1.2.80:8000/v1?key=abc', {})).toEqual({ address: '10.1.2.80', port: 8000 });
    expect(providerServer('openai', undefined, { OPENAI_BASE_URL: 'http://127.0.0.1:9911/v1' })).toEqual({ address: '127.0.0.1', port: 9911 });
    expect(providerServer('anthropic', undefined, { OPENAI_BASE_URL: 'http://127.0.0.1:9911/v1' })).toEqual({ address: 'api.anthropic.com', port: 443 });
    expect(providerServer('openai-responses', undefined, {})).toEqual({ address: 'api.openai.com', port: 443 });
  });

  it('gives a URL without a port its scheme\'s port and an IPv6 host without brackets', () => {
    expect(providerServer('openai', 'http://llm.internal/v1', {})).toEqual({ address: 'llm.internal', port: 80 });
    expect(providerServer('openai', 'https://[::1]/v1', {})).toEqual({ address: '::1', port: 443 });
  });

  it('gives nothing when there is no usable URL (an openai-compatible agent without one, a malformed one)', () => {
    expect(providerServer('openai-compatible', undefined, {})).toBeUndefined();
    expect(providerServer('openai', 'not a url', {})).toBeUndefined();
  });
});
