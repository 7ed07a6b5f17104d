import { describe, expect, it } from 'vitest';
import { judgeAnswer } from './judge-answer.js';

const AXES = ['intent_comprehension', 'response_naturalness'];

describe('judgeAnswer', () => {
  it('reads a JSON answer (also inside a Markdown fence)', () => {
    expect(judgeAnswer('{"intent_comprehension": 4, "response_naturalness": 5, "reason": "clear"}', AXES)).toEqual({
      scores: { intent_comprehension: 4, response_naturalness: 5 },
      reason: 'clear',
    });
    expect(judgeAnswer('```json\n{"intent_comprehension": 1, "response_naturalness": 2}\n```', AXES)).toEqual({
      scores: { intent_comprehension: 1, response_naturalness: 2 },
      reason: '',
    });
  });

  it('never guesses: prose, off-scale, fractional or missing scores are problems', () => {
    expect(judgeAnswer('About a 4.', AXES)).toEqual({ problem: 'the answer is not JSON' });
    expect(judgeAnswer('[4, 5]', AXES)).toEqual({ problem: 'the answer is not a JSON object' });
    expect(judgeAnswer('{"intent_comprehension": 0, "response_naturalness": 5}', AXES)).toEqual({ problem: 'intent_comprehension is 0, not a whole number from 1 to 5' });
    expect(judgeAnswer('{"intent_comprehension": 3.5, "response_naturalness": 5}', AXES)).toEqual({ problem: 'intent_comprehension is 3.5, not a whole number from 1 to 5' });
    expect(judgeAnswer('{"intent_comprehension": "4", "response_naturalness": 5}', AXES)).toEqual({ problem: 'intent_comprehension is "4", not a whole number from 1 to 5' });
    expect(judgeAnswer('{"intent_comprehension": 4}', AXES)).toEqual({ problem: 'response_naturalness is missing, not a whole number from 1 to 5' });
  });
});
