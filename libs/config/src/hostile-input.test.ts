import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { formatIssue } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { CalibrationSetSchema } from './calibration-schema.js';
import { loadSuite } from './load-suite.js';
import { parseConfigText, readConfigFile } from './config-file.js';
import { ScenarioSchema } from './scenario-schema.js';
import { SuiteSchema } from './suite-schema.js';
import { METRIC_PARAMS, SUITE_YAML, validSuiteFiles, writeFiles } from './test-support/suite-fixture.js';

/**
 * Files that crashed the loader with a stack trace, or were taken silently: deep nesting, alias
 * tricks, bytes that are not UTF-8, control characters, thousands of unknown keys. Each must be a
 * located issue, in every kind of file.
 */

const SCENARIO = 'id: a\nagent: booking\nuser: { opening: "Hi" }\n';
const CALIBRATION = 'schema_version: 1\nrubric_version: "1.0.0"\nowner: o\naxes: [intent_comprehension]\nitems: []\n';

const FILES = [
  { name: 'a scenario', file: 'a.yaml', text: SCENARIO, schema: ScenarioSchema },
  { name: 'parley.yaml', file: 'parley.yaml', text: SUITE_YAML, schema: SuiteSchema },
  { name: 'human_labelled.yaml', file: 'human_labelled.yaml', text: CALIBRATION, schema: CalibrationSetSchema },
] as const;

function issuesOf(text: string, file: string, schema: (typeof FILES)[number]['schema']): string[] {
  return parseConfigText(text, file, schema).issues.map(formatIssue);
}

describe.each(FILES)('hostile YAML in $name', ({ file, text, schema }) => {
  const lines = text.split('\n').length;

  it('refuses nesting 10,000 levels deep (flow and block) at its line', () => {
    expect(issuesOf(`${text}deep: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`, file, schema)).toEqual([
      expect.stringMatching(new RegExp(`^${file}:${lines}:\\d+: lists and mappings nest deeper than 100 levels`)),
    ]);
    expect(issuesOf(`${text}deep:\n  ${'- '.repeat(10_000)}1\n`, file, schema)).toEqual([
      expect.stringMatching(new RegExp(`^${file}:${lines + 1}:\\d+: lists and mappings nest deeper than 100 levels`)),
    ]);
    // Deep enough to be refused, not deep enough to overflow anything: located at the deep value.
    expect(issuesOf(`${text}deep: ${'['.repeat(150)}${']'.repeat(150)}\n`, file, schema)).toEqual([
      expect.stringMatching(new RegExp(`^${file}:${lines}:\\d+: lists and mappings nest deeper than 100 levels`)),
    ]);
  });

  it('names an undefined alias where it is written', () => {
    expect(issuesOf(`${text}extra: *nope\n`, file, schema)).toEqual([`${file}:${lines}:8: undefined alias "*nope": no anchor "&nope" is written before it`]);
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let level = 1; level < 9; level++) {
      const [name, previous] = [String.fromCharCode(97 + level), String.fromCharCode(96 + level)];
      bomb.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(',')}]`);
    }
    expect(issuesOf(`${text}${bomb.join('\n')}\n`, file, schema)).toEqual([expect.stringMatching(new RegExp(`^${file}:${lines + 1}:\\d+: too many aliases`))]);
  });

  it('refuses control characters with their line and column', () => {
    expect(issuesOf(`${text}note: "a\u0000b"\n`, file, schema)).toEqual([
      `${file}:${lines}:9: control character U+0000 (NUL) is not allowed in the file; write it as an escape (such as "\\u0000" in a double-quoted string) if it is meant`,
    ]);
    expect(issuesOf(`${text}note: "\u001b[31mred"\n`, file, schema)[0]).toMatch(new RegExp(`^${file}:${lines}:8: control character U\\+001B \\(ESC\\)`));
  });

  it('refuses bytes that are not UTF-8 (a file saved as Latin-1) with their line and column', () => {
    const dir = writeFiles({});
    const path = join(dir, file);
    execFileSync('sh', ['-c', `cat > '${path}'`], { input: Buffer.concat([Buffer.from(text), Buffer.from('note: "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]) });
    expect(readConfigFile(path, schema).issues.map(formatIssue)).toEqual([`${path}:${lines}:11: the file is not UTF-8 text (byte 0xE9); save it as UTF-8`]);
  });

  it('reports 20,000 unknown keys, each at its line (linear: this took minutes when it was quadratic)', () => {
    const keys = Array.from({ length: 20_000 }, (_, index) => `unknown_key_${index}: ${index}`).join('\n');
    const issues = parseConfigText(`${text}${keys}\n`, file, schema).issues;
    expect(issues).toHaveLength(20_000);
    expect(formatIssue(issues[19_999]!)).toMatch(new RegExp(`^${file}:${lines + 19_999}:1: unknown key "unknown_key_19999"`));
  });

  it('still reports a duplicate key at the second one', () => {
    expect(issuesOf(`${text}dup: 1\ndup: 2\n`, file, schema)).toEqual([`${file}:${lines + 1}:1: duplicate key "dup": keys must be unique`]);
  });
});

describe('files that are not regular files', () => {
  it('refuses a FIFO instead of waiting on it for ever', () => {
    const dir = writeFiles({});
    const fifo = join(dir, 'parley.yaml');
    execFileSync('mkfifo', [fifo]);
    expect(readConfigFile(fifo, SuiteSchema).issues.map(formatIssue)).toEqual([`${fifo}: is not a regular file (a FIFO, socket or device?)`]);
  });

  it('refuses a scenario file that is a FIFO like any other unreadable scenario, instead of skipping it', () => {
    const dir = writeFiles(validSuiteFiles());
    const fifo = join(dir, 'scenarios', 'piped.yaml');
    execFileSync('mkfifo', [fifo]);
    expect(() => loadSuite(dir, { metricParams: METRIC_PARAMS })).toThrow(`${fifo}: is not a regular file (a FIFO, socket or device?)`);
  });

  it('refuses a scenario that is a link to nothing or a loop of links, instead of leaving it out of the gate without a word', () => {
    const dangling = writeFiles(validSuiteFiles());
    symlinkSync(join(dangling, 'gone.yaml'), join(dangling, 'scenarios', 'old.yaml'));
    expect(() => loadSuite(dangling, { metricParams: METRIC_PARAMS })).toThrow(`${join(dangling, 'scenarios', 'old.yaml')}: file not found`);

    const loop = writeFiles(validSuiteFiles());
    symlinkSync(join(loop, 'scenarios', 'b.yaml'), join(loop, 'scenarios', 'a.yaml'));
    symlinkSync(join(loop, 'scenarios', 'a.yaml'), join(loop, 'scenarios', 'b.yaml'));
    expect(() => loadSuite(loop, { metricParams: METRIC_PARAMS })).toThrow(/scenarios\/a\.yaml: cannot read the file: ELOOP/);
  });

  it('refuses a metric file that is a FIFO, a link to nothing or a loop of links, instead of leaving the metric out without a word', () => {
    const piped = writeFiles(validSuiteFiles());
    execFileSync('mkfifo', [join(piped, 'metrics', 'piped.yaml')]);
    expect(() => loadSuite(piped, { metricParams: METRIC_PARAMS })).toThrow(`${join(piped, 'metrics', 'piped.yaml')}: is not a regular file (a FIFO, socket or device?)`);

    const dangling = writeFiles(validSuiteFiles());
    symlinkSync(join(dangling, 'gone.yaml'), join(dangling, 'metrics', 'old.yml'));
    expect(() => loadSuite(dangling, { metricParams: METRIC_PARAMS })).toThrow(`${join(dangling, 'metrics', 'old.yml')}: file not found`);

    const loop = writeFiles(validSuiteFiles());
    symlinkSync(join(loop, 'metrics', 'b.yaml'), join(loop, 'metrics', 'a.yaml'));
    symlinkSync(join(loop, 'metrics', 'a.yaml'), join(loop, 'metrics', 'b.yaml'));
    expect(() => loadSuite(loop, { metricParams: METRIC_PARAMS })).toThrow(/metrics\/a\.yaml: cannot read the file: ELOOP/);
  });

  // The scenarios glob is given to Node's own glob only when the folder holds something other than
  // files and folders; each of these must still be found.
  it('refuses a FIFO in a sub-folder the default glob reaches, a link to a FIFO, and a FIFO the glob names exactly', () => {
    const nested = writeFiles(validSuiteFiles());
    const deep = join(nested, 'scenarios', 'more', 'deep');
    mkdirSync(deep, { recursive: true });
    execFileSync('mkfifo', [join(deep, 'piped.yaml')]);
    expect(() => loadSuite(nested, { metricParams: METRIC_PARAMS })).toThrow(`${join(deep, 'piped.yaml')}: is not a regular file (a FIFO, socket or device?)`);

    const linked = writeFiles(validSuiteFiles());
    execFileSync('mkfifo', [join(linked, 'elsewhere.fifo')]);
    symlinkSync(join(linked, 'elsewhere.fifo'), join(linked, 'scenarios', 'linked.yaml'));
    expect(() => loadSuite(linked, { metricParams: METRIC_PARAMS })).toThrow(`${join(linked, 'scenarios', 'linked.yaml')}: is not a regular file (a FIFO, socket or device?)`);

    const named = writeFiles({ ...validSuiteFiles(), 'parley.yaml': SUITE_YAML.replace(/^suite: (.*)$/m, 'suite: $1\nscenarios: scenarios/piped.yaml') });
    execFileSync('mkfifo', [join(named, 'scenarios', 'piped.yaml')]);
    expect(() => loadSuite(named, { metricParams: METRIC_PARAMS })).toThrow(`${join(named, 'scenarios', 'piped.yaml')}: is not a regular file (a FIFO, socket or device?)`);
  });

  it('a suite of plain files and folders loads as before', () => {
    const dir = writeFiles(validSuiteFiles());
    mkdirSync(join(dir, 'scenarios', 'empty', 'folder'), { recursive: true });
    expect(loadSuite(dir, { metricParams: METRIC_PARAMS }).scenarios.length).toBeGreaterThan(0);
  });
});
