/**
 * Canonical JSON: object keys sorted by code point, no insignificant whitespace, `undefined`
 * members dropped, non-finite numbers refused. Two values that are equal as data always give
 * the same text, on every platform, so the text can be hashed for cache keys, recording keys
 * and fingerprints.
 *
 * @example canonicalJson({ b: 1, a: [true, null] }) === '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return serialise(value, '$');
}

function serialise(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${path} is not a finite number`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${value.map((item, index) => (item === undefined ? 'null' : serialise(item, `${path}[${index}]`))).join(',')}]`;
      }
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort(compareCodePoints);
      return `{${keys.map((key) => `${JSON.stringify(key)}:${serialise(record[key], `${path}.${key}`)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: ${path} has unsupported type ${typeof value}`);
  }
}

function compareCodePoints(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
