import type { Status } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { triageOrder } from './triage-order.js';

const result = (scenario_id: string, status: Status) => ({ scenario_id, status });

describe('triageOrder', () => {
  it('puts errors and failures first, then flaky, then warnings, then the rest', () => {
    const ordered = triageOrder([
      result('a_pass', 'pass'),
      result('b_skipped', 'skipped'),
      result('c_warn', 'warn'),
      result('d_flaky', 'flaky'),
      result('e_fail', 'fail'),
      result('f_error', 'error'),
    ]);
    expect(ordered.map((entry) => entry.status)).toEqual(['error', 'fail', 'flaky', 'warn', 'pass', 'skipped']);
  });

  it('orders scenarios of one status by id, whatever order they came in', () => {
    const ordered = triageOrder([result('zeta', 'fail'), result('alpha', 'pass'), result('beta', 'fail'), result('gamma', 'pass')]);
    expect(ordered.map((entry) => entry.scenario_id)).toEqual(['beta', 'zeta', 'alpha', 'gamma']);
  });

  it('puts blocking scenarios before advisory ones of the same status', () => {
    const ordered = triageOrder([
      { scenario_id: 'a_advisory', status: 'fail', gate: 'advisory' as const },
      { scenario_id: 'b_blocking', status: 'fail', gate: 'blocking' as const },
      { scenario_id: 'c_error', status: 'error', gate: 'advisory' as const },
      { scenario_id: 'd_pass', status: 'pass', gate: 'blocking' as const },
    ]);
    expect(ordered.map((entry) => entry.scenario_id)).toEqual(['c_error', 'b_blocking', 'a_advisory', 'd_pass']);
  });

  it('keeps the other fields and leaves the input untouched', () => {
    const input = [{ ...result('x', 'pass'), agent: 'booking' }, { ...result('y', 'fail'), agent: 'support' }];
    const ordered = triageOrder(input);
    expect(ordered[0]).toBe(input[1]);
    expect(input.map((entry) => entry.scenario_id)).toEqual(['x', 'y']);
    expect(triageOrder([])).toEqual([]);
  });
});
