import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, pathDeeperThan } from './nesting-depth.js';

/** `depth` lists nested in each other under `key`, the innermost holding `leaf`. */
function nested(depth: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { key: value };
  return value;
}

describe('pathDeeperThan', () => {
  it('finds nothing in scalars and in values nested up to the limit', () => {
    expect(pathDeeperThan('text', 2)).toBeUndefined();
    expect(pathDeeperThan(null, 0)).toBeUndefined();
    expect(pathDeeperThan({ a: [1, 'x', null], b: { c: true } }, 2)).toBeUndefined();
    expect(pathDeeperThan(nested(MAX_NESTING_DEPTH), MAX_NESTING_DEPTH)).toBeUndefined();
  });

  it('names the path to the first list or mapping past the limit', () => {
    expect(pathDeeperThan({ a: [[1]] }, 2)).toEqual(['a', 0]);
    expect(pathDeeperThan({ a: [1, { b: {} }] }, 2)).toEqual(['a', 1]);
    expect(pathDeeperThan({ ok: [1], deep: { x: { y: {} } } }, 2)).toEqual(['deep', 'x']);
    expect(pathDeeperThan([], 0)).toEqual([]);
    const path = pathDeeperThan(nested(MAX_NESTING_DEPTH + 2), MAX_NESTING_DEPTH);
    expect(path).toHaveLength(MAX_NESTING_DEPTH);
  });

  it('walks values nested far deeper than the stack allows without overflowing', () => {
    expect(pathDeeperThan(nested(200_000), MAX_NESTING_DEPTH)).toHaveLength(MAX_NESTING_DEPTH);
  });
});
