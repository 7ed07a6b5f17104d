import type { DataPath } from './yaml-source.js';

/**
 * How deep lists and mappings may nest in a configuration file. Real files nest a handful of
 * levels (a tool's `returns` a few more); thousands of levels only come from damaged or hostile
 * files, and would overflow the stack of every recursive step after parsing (validation,
 * hashing, reports).
 */
export const MAX_NESTING_DEPTH = 100;

export const NESTING_MESSAGE = `lists and mappings nest deeper than ${MAX_NESTING_DEPTH} levels here; Parley reads at most ${MAX_NESTING_DEPTH}`;

/**
 * The path to the first list or mapping nested deeper than `limit` levels, or undefined. Walks
 * without recursion, so the check itself cannot overflow the stack.
 *
 * @example pathDeeperThan({ a: [[1]] }, 2) // ['a', 0]
 */
export function pathDeeperThan(value: unknown, limit: number): DataPath | undefined {
  // Every recording line and scenario file is checked, and nearly all are shallow: a walk that
  // allocates nothing says so first (its recursion stops at `limit`, so it cannot overflow the
  // stack either); only a value that is too deep pays for the walk below, which finds the path.
  if (!holdsStringOrDepth(value, limit)) return undefined;
  // Each pending value keeps a link to its parent, so a path is built only for the one returned.
  interface Pending {
    value: object;
    depth: number;
    key?: string | number;
    parent?: Pending;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const pending: Pending[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (current.depth >= limit) {
      const path: (string | number)[] = [];
      for (let step: Pending | undefined = current; step?.key !== undefined; step = step.parent) path.unshift(step.key);
      return path;
    }
    if (Array.isArray(current.value)) {
      for (const [index, child] of current.value.entries()) {
        if (child !== null && typeof child === 'object') pending.push({ value: child as object, depth: current.depth + 1, key: index, parent: current });
      }
    } else {
      for (const key in current.value) {
        const child = (current.value as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object') pending.push({ value: child, depth: current.depth + 1, key, parent: current });
      }
    }
  }
  return undefined;
}

/**
 * Whether `value` holds a string `test` accepts, or lists and mappings nested `limit` levels deep
 * (which counts as yes: the caller's full walk decides). A quick first answer for the values
 * checked on every load, nearly all shallow: it allocates nothing, and its recursion stops at
 * `limit`, so it cannot overflow the stack.
 */
export function holdsStringOrDepth(value: unknown, limit: number, test: (text: string) => boolean = noString): boolean {
  if (typeof value === 'string') return test(value);
  if (value === null || typeof value !== 'object') return false;
  if (limit <= 0) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) if (holdsStringOrDepth(value[index], limit - 1, test)) return true;
    return false;
  }
  for (const key in value) if (holdsStringOrDepth((value as Record<string, unknown>)[key], limit - 1, test)) return true;
  return false;
}

function noString(): boolean {
  return false;
}
