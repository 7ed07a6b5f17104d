import { canonicalJson } from '@parley/core';
import { COMMON_EXPECTATION_KEYS, type Expectation } from './expectation-schema.js';

/**
 * The expectations of one scenario from its levels, broadest first (suite defaults, then the
 * agent's, then the scenario's own). Defaults add to what a scenario expects: a suite-wide
 * forbidden list keeps applying to a scenario that has its own `content_signals`.
 *
 * One exception lets a scenario tune a default instead of repeating it: a narrower expectation
 * that carries only the common keys (threshold, gate, thresholding) and no parameters of its own
 * is merged into every broader expectation of that metric. Exact duplicates are kept once.
 *
 * @example
 * mergeExpectations([[{ metric: 'tool_correctness', expected: ['a'] }], [{ metric: 'tool_correctness', threshold: 1 }]])
 * // → [{ metric: 'tool_correctness', expected: ['a'], threshold: 1 }]
 */
export function mergeExpectations(levels: readonly (readonly Expectation[])[]): Expectation[] {
  let merged: Expectation[] = [];
  for (const level of levels) {
    for (const expectation of level) {
      const tunes = isTuning(expectation) && merged.some((earlier) => earlier.metric === expectation.metric);
      if (tunes) {
        merged = merged.map((earlier) => (earlier.metric === expectation.metric ? { ...earlier, ...expectation } : earlier));
      } else {
        merged.push(expectation);
      }
    }
  }
  const seen = new Set<string>();
  return merged.filter((expectation) => {
    const key = canonicalJson(expectation);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const COMMON_KEYS = new Set<string>(COMMON_EXPECTATION_KEYS);

/** Only common keys: the expectation adjusts a metric rather than adding a check of its own. */
function isTuning(expectation: Expectation): boolean {
  return Object.keys(expectation).every((key) => COMMON_KEYS.has(key));
}
