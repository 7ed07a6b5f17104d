import type { Status } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { combineAttempts } from './repeat-status.js';

const rows: Array<{ attempts: Status[]; status: Status; reason: string }> = [
  { attempts: [], status: 'skipped', reason: 'no attempts' },
  { attempts: ['skipped', 'skipped'], status: 'skipped', reason: 'all 2 attempts skipped' },
  { attempts: ['pass', 'pass', 'pass'], status: 'pass', reason: '3 of 3 attempts passed' },
  { attempts: ['fail', 'fail'], status: 'fail', reason: '0 of 2 attempts passed' },
  { attempts: ['pass', 'fail', 'pass'], status: 'flaky', reason: '2 of 3 attempts passed' },
  { attempts: ['fail', 'pass'], status: 'flaky', reason: '1 of 2 attempts passed' },
  { attempts: ['error', 'error'], status: 'error', reason: '0 of 2 attempts passed (2 errored)' },
  { attempts: ['fail', 'error'], status: 'error', reason: '0 of 2 attempts passed (1 errored)' },
  { attempts: ['pass', 'error', 'pass'], status: 'flaky', reason: '2 of 3 attempts passed (1 errored)' },
  { attempts: ['pass', 'warn'], status: 'warn', reason: '2 of 2 attempts passed' },
  { attempts: ['warn', 'fail'], status: 'flaky', reason: '1 of 2 attempts passed' },
  { attempts: ['pass', 'skipped', 'pass'], status: 'pass', reason: '2 of 2 attempts passed (1 skipped)' },
  { attempts: ['fail', 'skipped'], status: 'fail', reason: '0 of 1 attempts passed (1 skipped)' },
  { attempts: ['flaky', 'flaky'], status: 'flaky', reason: '0 of 2 attempts passed' },
  { attempts: ['error', 'flaky'], status: 'flaky', reason: '0 of 2 attempts passed (1 errored)' },
];

describe('combineAttempts', () => {
  it.each(rows)('$attempts → $status', ({ attempts, status, reason }) => {
    expect(combineAttempts(attempts)).toEqual({ status, reason });
  });

  it('does not depend on the order of attempts', () => {
    expect(combineAttempts(['fail', 'pass', 'error'])).toEqual(combineAttempts(['error', 'fail', 'pass']));
  });
});
