import { describe, expect, it } from 'vitest';
import { confusionMatrix } from './confusion-matrix.js';

describe('confusionMatrix', () => {
  it('has a row and a column for every label of the scale, used or not', () => {
    expect(confusionMatrix([[1, 2], [1, 2], [5, 5]])).toEqual([
      [0, 2, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 1],
    ]);
  });
});
