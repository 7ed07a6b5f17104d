import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flattenHeaders, REDACTED, redactHeaders } from './redact-headers.js';

describe('redactHeaders', () => {
  it('hides credentials and keeps the rest', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer sk-test-SECRET123',
        'x-api-key': 'sk-test-SECRET123',
        'x-session-token': 'abc',
        'idempotency-key': 'k',
        'anthropic-version': '2023-06-01',
        'x-parley-role': 'judge',
      }),
    ).toEqual({
      authorization: REDACTED,
      'x-api-key': REDACTED,
      'x-session-token': REDACTED,
      'idempotency-key': REDACTED,
      'anthropic-version': '2023-06-01',
      'x-parley-role': 'judge',
    });
  });

  it('is idempotent and never lets a credential header value through', () => {
    const headerName = fc.oneof(fc.stringMatching(/^[a-z-]{1,12}$/), fc.constantFrom('x-api-key', 'authorization', 'x-auth-token'));
    fc.assert(
      fc.property(fc.dictionary(headerName, fc.string()), (headers) => {
        const once = redactHeaders(headers);
        expect(redactHeaders(once)).toEqual(once);
        for (const name of ['x-api-key', 'authorization', 'x-auth-token']) {
          if (name in headers) expect(once[name]).toBe(REDACTED);
        }
      }),
    );
  });
});

describe('flattenHeaders', () => {
  it('joins repeated headers and drops missing ones', () => {
    expect(flattenHeaders({ accept: 'a', 'set-cookie': ['x=1', 'y=2'], missing: undefined })).toEqual({ accept: 'a', 'set-cookie': 'x=1, y=2' });
  });
});
