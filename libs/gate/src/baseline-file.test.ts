import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { baselineWarnings, parseBaselineText, readBaselineFile } from './baseline-file.js';

const COMMAND = 'parley run suite --export-baseline baseline.json';
const FINGERPRINT = `sha256:${'a'.repeat(64)}`;

function baselineText(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      schema_version: 1,
      suite: 'demo',
      parley_version: '0.1.0',
      created_at: '2026-01-01T00:00:00.000Z',
      config_fingerprint: FINGERPRINT,
      entries: [{ test_id: 'q_1', metric: 'tool_correctness', score: 0.92 }],
      ...overrides,
    },
    null,
    2,
  );
}

function parseError(text: string): ConfigError {
  try {
    parseBaselineText(text, 'baseline.json', { suite: 'demo', regenerateCommand: COMMAND });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('readBaselineFile', () => {
  it('reads a valid baseline', () => {
    const baseline = parseBaselineText(baselineText(), 'baseline.json', { suite: 'demo', regenerateCommand: COMMAND });
    expect(baseline.entries).toEqual([{ test_id: 'q_1', metric: 'tool_correctness', score: 0.92 }]);
  });

  it('refuses another schema_version at its line, saying how to regenerate', () => {
    const error = parseError(baselineText({ schema_version: 2 }));
    expect(error.issues[0]).toMatchObject({ file: 'baseline.json', line: 2 });
    expect(error.message).toContain('has schema_version 2, but this Parley reads schema_version 1; regenerate it with: ' + COMMAND);
    expect(error.message).toContain('or upgrade Parley');
  });

  it('refuses a file without schema_version', () => {
    expect(parseError('{"suite": "demo"}').message).toContain('has no schema_version');
  });

  it('refuses a baseline of another suite, saying how to regenerate', () => {
    const error = parseError(baselineText({ suite: 'other' }));
    expect(error.issues[0]).toMatchObject({ line: 3 });
    expect(error.message).toContain('this baseline is of suite "other", but the run is of suite "demo"');
    expect(error.message).toContain(COMMAND);
  });

  it('reports invalid JSON and schema problems with their place', () => {
    expect(parseError('{"schema_version": 1,\n  "suite": }').issues[0]).toMatchObject({ line: 2 });
    const error = parseError(baselineText({ entries: [{ test_id: 'q_1', metric: 'm', score: 1.5 }] }));
    expect(error.issues[0]!.line).toBeGreaterThan(1);
    expect(error.message).toMatch(/score/);
  });

  it('refuses a duplicate entry', () => {
    const entry = { test_id: 'q_1', metric: 'm', score: 0.5 };
    expect(parseError(baselineText({ entries: [entry, entry] })).message).toContain('a second entry for scenario "q_1" and metric "m"');
  });

  it('makes an unreadable file a ConfigError naming it and the command that creates it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parley-baseline-')), 'missing.json');
    expect(() => readBaselineFile(file, { suite: 'demo', regenerateCommand: COMMAND })).toThrow(/cannot read the baseline: file not found; create it with/);
    const folder = mkdtempSync(join(tmpdir(), 'parley-baseline-'));
    writeFileSync(join(folder, 'ok.json'), baselineText());
    expect(readBaselineFile(join(folder, 'ok.json'), { suite: 'demo', regenerateCommand: COMMAND }).suite).toBe('demo');
  });
});

describe('baselineWarnings', () => {
  const baseline = parseBaselineText(baselineText(), 'baseline.json', { suite: 'demo', regenerateCommand: COMMAND });
  const facts = { fingerprint: FINGERPRINT, parleyVersion: '0.1.0', file: 'baseline.json', regenerateCommand: COMMAND };

  it('has none when fingerprint and version agree', () => {
    expect(baselineWarnings(baseline, facts)).toEqual([]);
  });

  it('warns on another fingerprint, failing under --strict', () => {
    const [warning] = baselineWarnings(baseline, { ...facts, fingerprint: `sha256:${'b'.repeat(64)}` });
    expect(warning).toMatchObject({ kind: 'baseline_fingerprint_mismatch', fails_under_strict: true });
    expect(warning!.message).toContain('was made from another configuration');
  });

  it('warns on another Parley version without failing under --strict', () => {
    const [warning] = baselineWarnings(baseline, { ...facts, parleyVersion: '0.2.0' });
    expect(warning).toMatchObject({ kind: 'baseline_version_mismatch', fails_under_strict: false });
    expect(warning!.message).toContain('written by Parley 0.1.0, this is Parley 0.2.0');
  });
});
