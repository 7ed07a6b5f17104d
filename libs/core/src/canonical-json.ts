/**
 * Canonical JSON: object keys sorted by code point, no insignificant whitespace, `undefined`
 * members dropped, non-finite numbers refused. Two values that are equal as data always give
 * the same text, on every platform, so the text can be hashed for cache keys, recording keys
 * and fingerprints.
 *
 * `cache` remembers the text of objects already serialised: a caller that hashes many values
 * sharing the same (unchanged) objects — each request of a conversation repeats the messages
 * before it — passes one, so each message is serialised once.
 *
 * @example canonicalJson({ b: 1, a: [true, null] }) === '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown, cache?: WeakMap<object, string>): string {
  const text = serialise(value, cache);
  if (text === undefined) throw new TypeError(`canonicalJson: ${describeProblem(value, '$')}`);
  return text;
}

// Written as loops with string appends and no bookkeeping: this runs on every recorded or
// replayed call over the whole conversation so far, so it is on the hot path of large replays.
// A value it cannot carry makes it return undefined; the slow `describeProblem` then says where.
function serialise(value: unknown, cache: WeakMap<object, string> | undefined): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return value.length >= LONG_STRING ? quotedLongString(value) : JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'object': {
      if (Array.isArray(value)) {
        let text = '[';
        for (let index = 0; index < value.length; index += 1) {
          const item: unknown = value[index];
          const part = item === undefined ? 'null' : serialise(item, cache);
          if (part === undefined) return undefined;
          text += index > 0 ? `,${part}` : part;
        }
        return `${text}]`;
      }
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      const cached = cache?.get(value);
      if (cached !== undefined) return cached;
      const record = value as Record<string, unknown>;
      const keys = sortedKeys(Object.keys(record));
      let text = '{';
      let first = true;
      for (const key of keys) {
        const member = record[key];
        if (member === undefined) continue;
        const part = serialise(member, cache);
        if (part === undefined) return undefined;
        text += `${first ? '' : ','}${JSON.stringify(key)}:${part}`;
        first = false;
      }
      text += '}';
      cache?.set(value, text);
      return text;
    }
    default:
      return undefined;
  }
}

/** Strings this long (system prompts, tool results) recur in every request of a conversation. */
const LONG_STRING = 512;
const MAX_QUOTED = 256;
const quotedStrings = new Map<string, string>();

/** JSON.stringify of a long string, remembered: quoting a 5 kB prompt costs more than hashing it. */
function quotedLongString(value: string): string {
  let quoted = quotedStrings.get(value);
  if (quoted === undefined) {
    quoted = JSON.stringify(value);
    if (quotedStrings.size >= MAX_QUOTED) quotedStrings.clear();
    quotedStrings.set(value, quoted);
  }
  return quoted;
}

/** Where in `value` the first value canonical JSON cannot carry is, and why. */
function describeProblem(value: unknown, path: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is not a finite number`;
  if (typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value !== 'object') return `${path} has unsupported type ${typeof value}`;
  if (value instanceof Date) return undefined;
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [`${path}[${index}]`, item])
    : Object.keys(value).map((key) => [`${path}.${key}`, (value as Record<string, unknown>)[key]]);
  for (const [childPath, child] of entries) {
    const problem = describeProblem(child, childPath);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The keys in {@link compareCodePoints} order, sorted in place. Objects here have a handful of
 * keys, which an insertion sort orders without the scratch copy `Array.prototype.sort` allocates
 * (that copy was the largest allocation of a replay's request keys); the rare large object is
 * left to `sort`.
 */
function sortedKeys(keys: string[]): string[] {
  if (keys.length > SMALL_OBJECT) return keys.sort(compareCodePoints);
  for (let index = 1; index < keys.length; index += 1) {
    const key = keys[index]!;
    let at = index;
    for (; at > 0 && compareCodePoints(keys[at - 1]!, key) > 0; at -= 1) keys[at] = keys[at - 1]!;
    keys[at] = key;
  }
  return keys;
}

const SMALL_OBJECT = 16;

function compareCodePoints(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
