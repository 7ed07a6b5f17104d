import { describe, expect, it } from 'vitest';
import { BaselineSchema } from './baseline-schema.js';
import { parseConfigText } from './config-file.js';
import { whereIs } from './test-support/suite-fixture.js';

/** The baseline example of docs/file-formats.md. */
const EXAMPLE_BASELINE = `{ "schema_version": 1, "suite": "ratiba_booking", "parley_version": "0.1.0",
  "created_at": "2026-11-26T12:00:00Z", "config_fingerprint": "sha256:…",
  "entries": [ { "test_id": "spa_booking_swahili_happy", "metric": "conversation_judge",
                 "score": 0.91, "meta": { "judge_model": "claude-opus-4-7", "metric_version": "1.0.0" } } ] }`;

describe('BaselineSchema', () => {
  it('accepts the documented example', () => {
    const parsed = parseConfigText(EXAMPLE_BASELINE, 'baseline.json', BaselineSchema);
    expect(parsed.issues).toEqual([]);
    expect(parsed.data?.entries[0]).toMatchObject({ test_id: 'spa_booking_swahili_happy', score: 0.91 });
  });

  it('refuses another schema_version, at its place in the file', () => {
    const parsed = parseConfigText(EXAMPLE_BASELINE.replace('"schema_version": 1', '"schema_version": 2'), 'baseline.json', BaselineSchema);
    expect(parsed.issues).toEqual([
      { file: 'baseline.json', line: 1, column: 21, message: '"schema_version" must be 1, got number 2', severity: 'error' },
    ]);
  });

  it('refuses scores outside [0, 1] and duplicate entries', () => {
    const head = '{"schema_version": 1, "suite": "s", "parley_version": "0.1.0", "created_at": "x", "config_fingerprint": "sha256:0",';
    const outOfRange = `${head}\n "entries": [{ "test_id": "a", "metric": "m", "score": 1.5 }]}`;
    const issues = (text: string): string[] =>
      parseConfigText(text, 'b.json', BaselineSchema).issues.map((issue) => `${issue.line}:${issue.column} ${issue.message}`);
    expect(issues(outOfRange)).toEqual([`${whereIs(outOfRange, '1.5')} "score" must be at most 1, got number 1.5`]);
    const twice = `${head}\n "entries": [{ "test_id": "a", "metric": "m", "score": 0.5 },\n  { "test_id": "a", "metric": "m", "score": 0.7 }]}`;
    expect(issues(twice)).toEqual([`${whereIs(twice, '{ "test_id"', 2)} a second entry for scenario "a" and metric "m"`]);
  });

  it('reports JSON syntax errors with line and column', () => {
    const parsed = parseConfigText('{\n  "suite": "s",\n}\n', 'b.json', BaselineSchema);
    expect(parsed.issues).toHaveLength(1);
    expect(parsed.issues[0]).toMatchObject({ file: 'b.json', line: 3, column: 1 });
    expect(parsed.issues[0]!.message).toMatch(/^invalid JSON: /);
  });
});
