import type { ToolCall } from '@parley/core';
import { argumentSimilarity } from './argument-similarity.js';

/** An expected call; without `args` only the name is compared. */
export interface ExpectedCall {
  name: string;
  args?: Record<string, unknown>;
}

/** Which actual call an expected call was paired with (null: none) and how alike they are. */
export interface CallPairing {
  expected_index: number;
  actual_index: number | null;
  similarity: number;
}

export type AlignmentMode = 'default' | 'ordered' | 'exact';

/**
 * How alike an expected and an actual call are, in [0, 1]; null when the names differ, because a
 * call to another tool is never a match, not even a poor one.
 */
function callSimilarity(expected: ExpectedCall, actual: ToolCall): number | null {
  if (expected.name !== actual.name) return null;
  return expected.args === undefined ? 1 : argumentSimilarity(expected.args, actual.args ?? {});
}

/** Pairs expected with actual calls the way `mode` says; the score is the pairings' similarity sum / expected count. */
export function alignCalls(expected: ExpectedCall[], actual: ToolCall[], mode: AlignmentMode): CallPairing[] {
  if (mode === 'ordered') return alignInOrder(expected, actual);
  if (mode === 'exact') return alignByPosition(expected, actual);
  return alignGreedily(expected, actual);
}

/**
 * `default`: each expected call, in order, takes the most similar actual call not taken yet
 * (ties go to the earliest), so two expected calls to one tool need two actual calls.
 */
function alignGreedily(expected: ExpectedCall[], actual: ToolCall[]): CallPairing[] {
  const taken = new Set<number>();
  return expected.map((call, expectedIndex) => {
    let bestIndex: number | null = null;
    let bestSimilarity = -1;
    for (const [index, candidate] of actual.entries()) {
      const similarity = taken.has(index) ? null : callSimilarity(call, candidate);
      if (similarity !== null && similarity > bestSimilarity) {
        bestIndex = index;
        bestSimilarity = similarity;
      }
    }
    if (bestIndex === null) return { expected_index: expectedIndex, actual_index: null, similarity: 0 };
    taken.add(bestIndex);
    return { expected_index: expectedIndex, actual_index: bestIndex, similarity: bestSimilarity };
  });
}

/** `ordered`: the weighted longest common subsequence, weights being the pairs' similarity. */
function alignInOrder(expected: ExpectedCall[], actual: ToolCall[]): CallPairing[] {
  const similarity = (row: number, column: number): number | null => {
    const call = expected[row - 1];
    const candidate = actual[column - 1];
    return call === undefined || candidate === undefined ? null : callSimilarity(call, candidate);
  };
  // best[row * width + column]: the highest weight of a common subsequence of the first `row`
  // expected calls and the first `column` actual calls.
  const width = actual.length + 1;
  const best = new Float64Array((expected.length + 1) * width);
  const at = (row: number, column: number): number => best[row * width + column] ?? 0;
  for (let row = 1; row <= expected.length; row += 1) {
    for (let column = 1; column <= actual.length; column += 1) {
      const pair = similarity(row, column);
      const paired = pair === null ? -1 : at(row - 1, column - 1) + pair;
      best[row * width + column] = Math.max(at(row - 1, column), at(row, column - 1), paired);
    }
  }
  const pairings: CallPairing[] = expected.map((_, index) => ({ expected_index: index, actual_index: null, similarity: 0 }));
  let row = expected.length;
  let column = actual.length;
  while (row > 0 && column > 0) {
    const pair = similarity(row, column);
    if (pair !== null && at(row, column) === at(row - 1, column - 1) + pair) {
      pairings[row - 1] = { expected_index: row - 1, actual_index: column - 1, similarity: pair };
      row -= 1;
      column -= 1;
    } else if (at(row, column) === at(row - 1, column)) {
      row -= 1;
    } else {
      column -= 1;
    }
  }
  return pairings;
}

/** `exact`: the n-th expected call against the n-th actual call. */
function alignByPosition(expected: ExpectedCall[], actual: ToolCall[]): CallPairing[] {
  return expected.map((call, index) => {
    const candidate = actual[index];
    const similarity = candidate === undefined ? null : callSimilarity(call, candidate);
    return { expected_index: index, actual_index: similarity === null ? null : index, similarity: similarity ?? 0 };
  });
}
