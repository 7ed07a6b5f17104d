import { describe, expect, it } from 'vitest';
import { matchesQuery } from './filter-query.js';

describe('matchesQuery', () => {
  const run = { id: '20261126-120000-abc123', status: 'fail', suite: 'booking', mode: 'replay' };

  it('matches every word, anywhere or in the named field, ignoring case', () => {
    expect(matchesQuery(run, '')).toBe(true);
    expect(matchesQuery(run, 'abc1')).toBe(true);
    expect(matchesQuery(run, 'status:fail BOOKING')).toBe(true);
    expect(matchesQuery(run, 'status:pass')).toBe(false);
    expect(matchesQuery(run, 'suite:municipal')).toBe(false);
    expect(matchesQuery(run, 'booking live')).toBe(false);
  });

  it('takes an unknown field name as plain text', () => {
    expect(matchesQuery({ reason: 'see http://x' }, 'http://x')).toBe(true);
  });
});
