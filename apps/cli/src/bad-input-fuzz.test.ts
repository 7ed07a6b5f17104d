import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSuite } from '@parley/config';
import { ConfigError } from '@parley/core';
import { readRecording } from '@parley/providers';
import { REPO_ROOT } from './test-support/example-copy.js';
import { mutate, mutationsArbitrary, type Mutation } from './test-support/file-mutations.js';
import { parleyAsync } from './test-support/parley-process.js';

/**
 * Bad input never crashes Parley: whatever happens to a scenario, parley.yaml, a recording or the
 * calibration set, loading it either works or ends in a ConfigError whose issues name the file and
 * the line (the CLI prints them and exits 2). A stack overflow, a parser's own exception or a hang
 * is a bug. Seeded, so a failure reproduces; fast-check shrinks it to the smallest damage.
 */

const SCENARIO = 'spa_booking_codeswitch';

/** The example booking suite with the example calibration set beside it, in a temp folder. */
function fixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-fuzz-'));
  cpSync(join(REPO_ROOT, 'examples/booking'), dir, { recursive: true });
  cpSync(join(REPO_ROOT, 'calibration/human_labelled.yaml'), join(dir, 'calibration/human_labelled.yaml'));
  return dir;
}

interface FileKind {
  /** Path inside the fixture. */
  file: string;
  /** Loads what the file is part of, as the CLI would. */
  load(dir: string): unknown;
}

// The CLI loads these two lazily; so does this test.
const { loadCalibrationSet } = await import('@parley/calibration');
const metricParams = (await import('@parley/runner')).metricParamSchemas();
const KINDS: Record<string, FileKind> = {
  scenario: { file: `scenarios/${SCENARIO}.yaml`, load: (dir) => loadSuite(dir, { metricParams }) },
  suite: { file: 'parley.yaml', load: (dir) => loadSuite(dir, { metricParams }) },
  recording: { file: `recordings/${SCENARIO}.jsonl`, load: (dir) => readRecording(join(dir, `recordings/${SCENARIO}.jsonl`)) },
  calibration: { file: 'calibration/human_labelled.yaml', load: (dir) => loadCalibrationSet(join(dir, 'calibration/human_labelled.yaml')) },
};

type Outcome = 'loaded' | 'clean error';

/** Loads with one file damaged, then puts the file back. A crash is thrown, with the damage that caused it. */
function loadDamaged(dir: string, kind: FileKind, mutations: Mutation[]): Outcome {
  const path = join(dir, kind.file);
  const original = readFileSync(path);
  writeFileSync(path, mutations.reduce(mutate, original));
  try {
    kind.load(dir);
    return 'loaded';
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const issue of error.issues.filter((candidate) => candidate.severity !== 'warning')) {
      expect(issue.file, error.message).not.toBe('');
      expect(issue.line, `no line in: ${error.message}`).toBeGreaterThanOrEqual(1);
    }
    return 'clean error';
  } finally {
    writeFileSync(path, original);
  }
}

const RUNS_PER_KIND = 75;
const tally = { inputs: 0, 'clean error': 0, loaded: 0 };

describe('bad input never crashes (seeded property-based fuzzing)', () => {
  const dir = fixture();

  afterAll(() => {
    // The figures docs/reliability.md quotes.
    console.log(`fuzz: ${tally.inputs} damaged files, ${tally['clean error']} clean errors with file:line, ${tally.loaded} still valid, 0 crashes`);
  });

  for (const [name, kind] of Object.entries(KINDS)) {
    it(`a damaged ${name} file loads or is a ConfigError with file:line`, () => {
      fc.assert(
        fc.property(mutationsArbitrary, (mutations) => {
          const outcome = loadDamaged(dir, kind, mutations);
          tally.inputs++;
          tally[outcome]++;
        }),
        { seed: 20261126, numRuns: RUNS_PER_KIND },
      );
    }, 120_000);
  }

  it('the parley binary exits 2 with file:line and no stack trace', async () => {
    const deepFlow = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const cases: { file: string; damage: (text: string) => string; command: string[]; latin1?: boolean }[] = [
      { file: `scenarios/${SCENARIO}.yaml`, damage: (text) => `${text}\nnested: ${deepFlow}\n`, command: ['validate'] },
      { file: 'parley.yaml', damage: (text) => text.replace('budget_usd: 1', 'budget_usd: *nope'), command: ['validate'] },
      { file: 'parley.yaml', damage: (text) => mutate(Buffer.from(text), { kind: 'alias-bomb' }).toString(), command: ['run'] },
      { file: `scenarios/${SCENARIO}.yaml`, damage: (text) => text.replace('Wambui', 'W\u00e9mbui'), latin1: true, command: ['run'] },
      { file: `recordings/${SCENARIO}.jsonl`, damage: (text) => text.replace('"role":"agent"', '"role":"agent\u0000"'), command: ['run'] },
      {
        file: 'calibration/human_labelled.yaml',
        damage: (text) => `${text}\nnested:\n  ${'- '.repeat(10_000)}1\n`,
        command: ['calibrate', 'report', '--dir', 'calibration'],
      },
    ];
    for (const { file, damage, command, latin1 } of cases) {
      const path = join(dir, file);
      const original = readFileSync(path);
      const damaged = damage(original.toString('utf8'));
      expect(damaged, `the damage to ${file} changed nothing`).not.toBe(original.toString('utf8'));
      writeFileSync(path, Buffer.from(damaged, latin1 ? 'latin1' : 'utf8'));
      try {
        const result = await parleyAsync(command, { cwd: dir });
        const where = `parley ${command.join(' ')} with ${file} damaged:\n${result.stderr}`;
        expect(result.status, where).toBe(2);
        expect(result.stderr, where).toMatch(new RegExp(`${file.replace(/[.*]/g, '\\$&')}:\\d+(:\\d+)?: `));
        expect(result.stderr, where).not.toMatch(/^\s+at /m);
      } finally {
        writeFileSync(path, original);
      }
    }
  }, 120_000);
});
