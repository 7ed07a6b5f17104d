import { describe, expect, it } from 'vitest';
import { STATUSES_BY_SEVERITY, statusSeverity } from './status-severity.js';

describe('statusSeverity', () => {
  it('orders error > fail > flaky > warn > pass > skipped', () => {
    const ordered = [...STATUSES_BY_SEVERITY].reverse().sort((left, right) => statusSeverity(right) - statusSeverity(left));
    expect(ordered).toEqual(['error', 'fail', 'flaky', 'warn', 'pass', 'skipped']);
  });

  it('lists every status once', () => {
    expect(new Set(STATUSES_BY_SEVERITY)).toEqual(new Set(['pass', 'fail', 'warn', 'flaky', 'error', 'skipped']));
    expect(STATUSES_BY_SEVERITY).toHaveLength(6);
  });
});
