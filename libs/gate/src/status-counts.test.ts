import { describe, expect, it } from 'vitest';
import { countStatuses } from './status-counts.js';

describe('countStatuses', () => {
  it('has every status key, zero when absent', () => {
    expect(countStatuses([])).toEqual({ pass: 0, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0 });
  });

  it('counts each status', () => {
    const counts = countStatuses([
      { status: 'pass' },
      { status: 'pass' },
      { status: 'fail' },
      { status: 'warn' },
      { status: 'flaky' },
      { status: 'error' },
      { status: 'skipped' },
      { status: 'skipped' },
    ]);
    expect(counts).toEqual({ pass: 2, fail: 1, warn: 1, flaky: 1, error: 1, skipped: 2 });
  });
});
