import { isPlainObject } from './transcript-problem.js';

/**
 * How alike two argument objects are: shared keys with equal values / size of the union of keys.
 * A shared key whose two values are both objects contributes their own similarity instead of
 * 0 or 1, so one wrong nested field costs part of that key, not all of it.
 *
 * @example argumentSimilarity({ id: 1, n: 2 }, { id: 1, n: 3 }) === 0.5
 * @example argumentSimilarity({}, {}) === 1
 */
export function argumentSimilarity(expected: Record<string, unknown>, actual: Record<string, unknown>): number {
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  if (keys.size === 0) return 1;
  let shared = 0;
  for (const key of keys) {
    if (!Object.hasOwn(expected, key) || !Object.hasOwn(actual, key)) continue;
    const left = expected[key];
    const right = actual[key];
    shared += isPlainObject(left) && isPlainObject(right) ? argumentSimilarity(left, right) : valuesEqual(left, right) ? 1 : 0;
  }
  return shared / keys.size;
}

/** Equality as data: same JSON-like structure, key order ignored, arrays in order. */
export function valuesEqual(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    return (
      Array.isArray(left) &&
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((item, index) => valuesEqual(item, right[index]))
    );
  }
  if (!isPlainObject(left) || !isPlainObject(right)) return false;
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  return leftKeys.every((key) => Object.hasOwn(right, key) && valuesEqual(left[key], right[key]));
}

/**
 * What differs between expected and actual arguments, one phrase per key, nested keys dotted.
 *
 * @example describeArgumentDifferences({ n: 2 }, { n: 3, x: 1 }) → ['n: expected 2, got 3', 'x: unexpected']
 */
export function describeArgumentDifferences(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  prefix = '',
): string[] {
  const differences: string[] = [];
  for (const key of Object.keys(expected)) {
    const path = `${prefix}${key}`;
    const left = expected[key];
    const right = actual[key];
    if (!Object.hasOwn(actual, key)) differences.push(`${path}: missing`);
    else if (isPlainObject(left) && isPlainObject(right)) differences.push(...describeArgumentDifferences(left, right, `${path}.`));
    else if (!valuesEqual(left, right)) differences.push(`${path}: expected ${render(left)}, got ${render(right)}`);
  }
  for (const key of Object.keys(actual)) {
    if (!Object.hasOwn(expected, key)) differences.push(`${prefix}${key}: unexpected`);
  }
  return differences;
}

const MAX_RENDERED = 40;

function render(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_RENDERED ? `${text.slice(0, MAX_RENDERED - 1)}…` : text;
}
