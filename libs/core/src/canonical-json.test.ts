import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { hashCanonical } from './hash.js';

describe('canonicalJson', () => {
  it('sorts keys, drops undefined members and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: undefined, d: { z: 0, y: -1.5 } })).toBe(
      '{"a":[true,null,"x"],"b":1,"d":{"y":-1.5,"z":0}}',
    );
  });

  it('sorts by code point, not by locale', () => {
    expect(canonicalJson({ é: 1, z: 2, Z: 3 })).toBe('{"Z":3,"z":2,"é":1}');
  });

  it('refuses values JSON cannot carry faithfully', () => {
    expect(() => canonicalJson({ score: Number.NaN })).toThrow(/\$\.score is not a finite number/);
    expect(() => canonicalJson({ run: () => 1 })).toThrow(/unsupported type function/);
  });

  it('gives the same text whatever the key insertion order (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
        expect(hashCanonical(reversed)).toBe(hashCanonical(record));
      }),
    );
  });

  it('orders keys by UTF-16 code unit, small and large objects alike (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.integer(), { maxKeys: 40 }), (record) => {
        const expected = Object.keys(record)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${record[key]}`)
          .join(',');
        expect(canonicalJson(record)).toBe(`{${expected}}`);
      }),
    );
  });

  it('round-trips through JSON.parse to equal data (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const normalised = JSON.parse(JSON.stringify(value)) as unknown;
        expect(JSON.parse(canonicalJson(normalised))).toEqual(normalised);
      }),
    );
  });
});

describe('canonicalJson with a cache', () => {
  it('gives the same text as without, and reuses the text of objects it has seen', () => {
    const message = { role: 'user', content: 'Habari', extra: { b: 2, a: 1 } };
    const cache = new WeakMap<object, string>();
    const first = canonicalJson({ messages: [message] }, cache);
    expect(first).toBe(canonicalJson({ messages: [message] }));
    expect(cache.get(message)).toBe('{"content":"Habari","extra":{"a":1,"b":2},"role":"user"}');
    expect(canonicalJson({ messages: [message, { role: 'assistant' }] }, cache)).toBe(canonicalJson({ messages: [message, { role: 'assistant' }] }));
  });
});
