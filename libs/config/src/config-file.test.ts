import fc from 'fast-check';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { stringify } from 'yaml';
import { parseConfigText, readConfigFile } from './config-file.js';
import { ScenarioSchema } from './scenario-schema.js';
import { SuiteSchema } from './suite-schema.js';
import { SUITE_YAML, whereIs, writeFiles } from './test-support/suite-fixture.js';

/** Both paths' answers side by side, without the functions. */
function bothPaths(text: string, file = 's.yaml') {
  const fast = parseConfigText(text, file, ScenarioSchema);
  const slow = parseConfigText(text, file, ScenarioSchema, { fastPath: false });
  return {
    fast: { data: fast.data, raw: fast.raw, issues: fast.issues },
    slow: { data: slow.data, raw: slow.raw, issues: slow.issues },
  };
}

describe('parseConfigText', () => {
  it('gives the same data on the fast and the slow path for a valid file', () => {
    const { fast, slow } = bothPaths('id: a\nagent: booking\ntags: [x]\nuser:\n  opening: Hi\nexpect:\n  - { metric: m, threshold: 0.5 }\n');
    expect(fast.issues).toEqual([]);
    expect(fast).toEqual(slow);
  });

  it('gives the same located issues on both paths for an invalid file', () => {
    const text = 'id: a\nagnet: booking\nexpect:\n  - metric: m\n    threshold: high\n';
    const { fast, slow } = bothPaths(text);
    expect(fast.issues.map((issue) => issue.message)).toEqual([
      'missing required key "agent"',
      'unknown key "agnet" (did you mean "agent"?)',
      '"threshold" must be a number, got string "high"',
    ]);
    expect(fast).toEqual(slow);
  });

  it('agrees on both paths for generated scenario files, valid or not', () => {
    const scenario = fc.record(
      {
        id: fc.constantFrom('a', 'spa_booking', 'Bad Id'),
        agent: fc.constantFrom('booking', '', 3),
        tags: fc.array(fc.constantFrom('smoke', 'happy-path', 7), { maxLength: 3 }),
        gate: fc.constantFrom('blocking', 'advisory', 'maybe'),
        user: fc.record({ opening: fc.string({ maxLength: 20 }), script: fc.array(fc.string({ maxLength: 10 }), { maxLength: 2 }) }, { requiredKeys: [] }),
        expect: fc.array(fc.record({ metric: fc.constantFrom('content_signals', ''), threshold: fc.constantFrom(0.8, 2, 'high') }, { requiredKeys: ['metric'] }), { maxLength: 3 }),
        titel: fc.string({ maxLength: 5 }),
      },
      { requiredKeys: ['id'] },
    );
    fc.assert(
      fc.property(scenario, fc.boolean(), (data, flow) => {
        const { fast, slow } = bothPaths(stringify(data, flow ? { collectionStyle: 'flow' } : {}));
        expect(fast).toEqual(slow);
      }),
      { numRuns: 300 },
    );
  });

  it('treats CRLF files like LF files', () => {
    const text = 'id: a\nagent: booking\nuser:\n  opening: |\n    Habari\n    yako\n';
    expect(parseConfigText(text.replaceAll('\n', '\r\n'), 's.yaml', ScenarioSchema).data).toEqual(parseConfigText(text, 's.yaml', ScenarioSchema).data);
  });

  it('reads a file with a byte order mark', () => {
    expect(parseConfigText(`\ufeff${SUITE_YAML}`, 'parley.yaml', SuiteSchema).issues).toEqual([]);
    expect(parseConfigText('\ufeff[]', 'tools.json', ScenarioSchema.array()).data).toEqual([]);
  });

  it('locates broken JSON where the parser stopped, also when V8 names no position (an unexpected token)', () => {
    const unexpected = parseConfigText('{\n  "dialogues": [\n    { "id": "1", "turns": [ }\n  ]\n}\n', 'd.json', z.unknown());
    expect(unexpected.issues).toEqual([expect.objectContaining({ file: 'd.json', line: 3, column: 29, message: expect.stringMatching(/^invalid JSON: Unexpected token/) })]);
    const missingComma = parseConfigText('{"a": 1 "b": 2}', 'd.json', z.unknown());
    expect(missingComma.issues).toEqual([expect.objectContaining({ line: 1, column: 9 })]);
  });

  it('locates extra issues raised by the caller', () => {
    const text = 'id: a\nagent: bookng\nuser: { opening: Hi }\n';
    const parsed = parseConfigText(text, 's.yaml', ScenarioSchema);
    expect(parsed.issueAt(['agent'], 'unknown agent')).toEqual({
      file: 's.yaml',
      line: 2,
      column: 8,
      message: 'unknown agent',
      severity: 'error',
    });
    expect(parsed.issueAt(['user', 'opening'], 'w', { target: 'key', severity: 'warning' })).toMatchObject({ line: 3, column: 9, severity: 'warning' });
    expect(whereIs(text, 'opening')).toBe('3:9');
  });
});

describe('readConfigFile', () => {
  it('reports a missing file and a folder as issues, not throws', () => {
    const dir = writeFiles({});
    mkdirSync(join(dir, 'folder.yaml'));
    expect(readConfigFile(join(dir, 'missing.yaml'), ScenarioSchema).issues).toEqual([
      { file: join(dir, 'missing.yaml'), message: 'file not found', severity: 'error' },
    ]);
    expect(readConfigFile(join(dir, 'folder.yaml'), ScenarioSchema).issues).toEqual([
      { file: join(dir, 'folder.yaml'), message: 'is a folder, not a file', severity: 'error' },
    ]);
  });
});
