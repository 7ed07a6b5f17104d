import { describe, expect, it } from 'vitest';
import { DEFAULT_RATERS, parseRaterFlag, resolveRaters } from './rater-models.js';

describe('resolveRaters', () => {
  it('takes flags first, then the suite, then the defaults, per rater', () => {
    expect(resolveRaters({})).toEqual(DEFAULT_RATERS);
    expect(
      resolveRaters({
        judgeFlag: 'openai-compatible:qwen3-72b',
        suiteJudge: { primary: { provider: 'anthropic', model: 'claude-sonnet-4-6' }, cross_check: { provider: 'openai', model: 'gpt-4.1-mini', temperature: 0.2, sample: 0.1 } },
      }),
    ).toEqual({
      judge: { provider: 'openai-compatible', model: 'qwen3-72b', temperature: 0 },
      cross_check: { provider: 'openai', model: 'gpt-4.1-mini', temperature: 0.2 },
    });
  });

  it('explains a flag that is not PROVIDER:MODEL', () => {
    expect(() => parseRaterFlag('gpt-4.1', '--cross-check')).toThrow('--cross-check gpt-4.1: write PROVIDER:MODEL with PROVIDER one of openai, openai-responses, anthropic, openai-compatible');
    expect(() => parseRaterFlag('mistral:large', '--judge')).toThrow(/--judge mistral:large/);
  });
});
