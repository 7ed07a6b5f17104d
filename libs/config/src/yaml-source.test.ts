import { describe, expect, it } from 'vitest';
import { parseYamlSource } from './yaml-source.js';

const TEXT = `suite: demo
agents:
  booking:
    kind: openai
    model:
expect:
  - metric: a
  - metric: b
    threshold: high
`;

describe('parseYamlSource', () => {
  const source = parseYamlSource(TEXT, 'parley.yaml');

  it('returns the data of a valid document', () => {
    expect(source.issues).toEqual([]);
    expect(source.data).toEqual({
      suite: 'demo',
      agents: { booking: { kind: 'openai', model: null } },
      expect: [{ metric: 'a' }, { metric: 'b', threshold: 'high' }],
    });
  });

  it('locates values, keys and list items (1-based)', () => {
    expect(source.locate(['expect', 1, 'threshold'])).toEqual({ line: 9, column: 16 });
    expect(source.locate(['expect', 1, 'threshold'], 'key')).toEqual({ line: 9, column: 5 });
    expect(source.locate(['expect', 1])).toEqual({ line: 8, column: 5 });
    expect(source.locate(['agents', 'booking', 'kind'])).toEqual({ line: 4, column: 11 });
  });

  it('points a missing key at the mapping it is missing from', () => {
    expect(source.locate(['agents', 'booking', 'url'])).toEqual({ line: 4, column: 5 });
    expect(source.locate(['nowhere', 'deeper'])).toEqual({ line: 1, column: 1 });
  });

  it('points an empty value at its key', () => {
    expect(source.locate(['agents', 'booking', 'model'])).toEqual({ line: 5, column: 5 });
  });

  it('reports syntax errors with their position and no data', () => {
    const broken = parseYamlSource('a: 1\nb: c: d\n', 'x.yaml');
    expect(broken.data).toBeUndefined();
    expect(broken.issues).toEqual([
      { file: 'x.yaml', line: 2, column: 4, message: 'invalid YAML: Nested mappings are not allowed in compact mappings', severity: 'error' },
    ]);
  });

  it('reports duplicate keys at the second key', () => {
    const duplicated = parseYamlSource('id: a\nagent: x\nid: b\n', 'x.yaml');
    expect(duplicated.issues).toEqual([
      { file: 'x.yaml', line: 3, column: 1, message: 'duplicate key "id": keys must be unique', severity: 'error' },
    ]);
  });

  it('locates inside JSON text too', () => {
    const json = parseYamlSource('[\n  {\n    "name": "a",\n    "parameters": 3\n  }\n]\n', 'tools.json');
    expect(json.locate([0, 'parameters'])).toEqual({ line: 4, column: 19 });
  });
});

describe('merge keys', () => {
  const MERGED = `x-base: &base
  kind: http
  url: http://127.0.0.1:8787/chat
  timeout_ms: fast
agents:
  a:
    <<: *base
    timeout_ms: 1000
  b:
    <<: [*base]
`;
  const source = parseYamlSource(MERGED, 'parley.yaml');

  it('applies `<<: *base` as editors do: the anchored keys, overridden by the mapping\'s own', () => {
    expect(source.issues).toEqual([]);
    expect(source.data).toEqual({
      'x-base': { kind: 'http', url: 'http://127.0.0.1:8787/chat', timeout_ms: 'fast' },
      agents: {
        a: { kind: 'http', url: 'http://127.0.0.1:8787/chat', timeout_ms: 1000 },
        b: { kind: 'http', url: 'http://127.0.0.1:8787/chat', timeout_ms: 'fast' },
      },
    });
  });

  it('locates a merged key where the anchored mapping writes it, an own key where it is written', () => {
    expect(source.locate(['agents', 'b', 'timeout_ms'])).toEqual({ line: 4, column: 15 });
    expect(source.locate(['agents', 'a', 'timeout_ms'])).toEqual({ line: 8, column: 17 });
    expect(source.locate(['agents', 'b', 'kind'], 'key')).toEqual({ line: 2, column: 3 });
  });

  it('survives a mapping that merges itself', () => {
    const cyclic = parseYamlSource('a: &a\n  <<: *a\n  k: 1\n', 'x.yaml');
    expect(() => cyclic.locate(['a', 'missing'])).not.toThrow();
  });
});
