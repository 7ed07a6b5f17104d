import { describe, expect, it } from 'vitest';
import { finishReasonFor } from './finish-reason.js';

describe('finishReasonFor', () => {
  it('defaults by whether tools were called', () => {
    expect(finishReasonFor('openai', undefined, false)).toBe('stop');
    expect(finishReasonFor('openai', undefined, true)).toBe('tool_calls');
    expect(finishReasonFor('anthropic', undefined, false)).toBe('end_turn');
    expect(finishReasonFor('anthropic', undefined, true)).toBe('tool_use');
  });

  it("translates the other provider's words and passes unknown ones through", () => {
    expect(finishReasonFor('openai', 'max_tokens', false)).toBe('length');
    expect(finishReasonFor('anthropic', 'length', false)).toBe('max_tokens');
    expect(finishReasonFor('anthropic', 'pause_turn', false)).toBe('pause_turn');
    expect(finishReasonFor('openai', 'stop', true)).toBe('stop');
  });
});
