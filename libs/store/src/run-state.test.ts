import { describe, expect, it } from 'vitest';
import { runState } from './run-state.js';

describe('runState', () => {
  it('calls a run interrupted by its status or by exit code 130 or 143, whatever status it was stored with', () => {
    expect(runState({ status: 'pass', exit_code: 130, finished: true })).toBe('interrupted');
    expect(runState({ status: 'fail', exit_code: 143, finished: true })).toBe('interrupted');
    expect(runState({ status: 'pass', exit_code: 0, finished: true })).toBe('pass');
    expect(runState({ status: 'fail', exit_code: 1, finished: true })).toBe('fail');
    expect(runState({ status: 'interrupted', exit_code: 130, finished: true })).toBe('interrupted');
    expect(runState({ finished: false })).toBe('unfinished');
  });
});
