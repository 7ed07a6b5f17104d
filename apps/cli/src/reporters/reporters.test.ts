import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { main } from '../main.js';
import { captureOutput } from '../test-support/capture-output.js';
import { copyExample } from '../test-support/example-copy.js';

let seed = 700;
async function parley(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const output = captureOutput();
  seed += 1;
  const code = await main(argv, { cwd, env, output, clock: manualClock(), random: seededRandom(seed) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

const CODESWITCH = 'scenarios/spa_booking_codeswitch.yaml';

/** 1-based line of the first line of the file that contains `text`. */
function lineOf(file: string, text: string): number {
  const index = readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`${text} not in ${file}`);
  return index + 1;
}

/** The booking example with its code-switching scenario made blocking, so its failure fails the run. */
function blockingCodeswitch(): string {
  const suite = copyExample('booking');
  const file = join(suite, CODESWITCH);
  writeFileSync(file, readFileSync(file, 'utf8').replace('gate: advisory', 'gate: blocking'));
  return suite;
}

describe('--reporter github', () => {
  it('a failing blocking scenario prints ::error with the scenario file and the line of the expectation that failed', async () => {
    const suite = blockingCodeswitch();
    const run = await parley(['run', '.', '--reporter', 'github', '--out', 'out'], suite);
    expect(run.code).toBe(1);
    // The scenario's first content_signals (the suite default comes before it) is the one with "reservation".
    const forbiddenLine = lineOf(join(suite, CODESWITCH), 'forbidden: ["reservation"]') - 1;
    expect(run.stdout).toContain(
      `::error file=${CODESWITCH},line=${forbiddenLine},col=5,title=parley%3A spa_booking_codeswitch fail::content_signals@1.0.0: forbidden "reservation" found in assistant message 3`,
    );
    // fluency_sw is attached by `language:`: its annotation points there.
    expect(run.stdout).toMatch(new RegExp(`^::error file=${CODESWITCH},line=${lineOf(join(suite, CODESWITCH), 'language: sw')},col=\\d+,title=[^:]+::fluency_sw@1\\.0\\.0: `, 'm'));
    // The list of scenarios is a collapsed group; the console summary is not printed.
    expect(run.stdout).toMatch(/^::group::parley ratiba_booking: FAIL · 8 scenarios \(7 pass, 1 fail\) · exit 1$/m);
    expect(run.stdout).toContain('::endgroup::');
    expect(run.stdout).not.toContain('│ scenario');
    expect(run.stdout.match(/^::error /gm)).toHaveLength(2);
  });

  it('an advisory failure is a ::warning; in GitHub Actions github is added to the console by default, paths relative to the checkout', async () => {
    const suite = copyExample('booking');
    const run = await parley(['run', '.', '--out', 'out'], suite, { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dirname(suite) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('│ scenario'); // the console summary
    const line = lineOf(join(suite, CODESWITCH), 'forbidden: ["reservation"]') - 1;
    expect(run.stdout).toContain(`::warning file=${basename(suite)}/${CODESWITCH},line=${line},col=5,title=parley%3A spa_booking_codeswitch fail (advisory)::content_signals@1.0.0: forbidden`);
    expect(run.stdout).not.toMatch(/^::error/m);
  });

  it('configuration errors (exit 2) become ::error annotations with file, line and column', async () => {
    const suite = copyExample('booking');
    const file = join(suite, 'scenarios', 'spa_price_question_sw.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('    max: 4', '    max: 4\n    treshold: 1'));
    const run = await parley(['run', '.', '--out', 'out'], suite, { GITHUB_ACTIONS: 'true' });
    expect(run.code).toBe(2);
    const line = lineOf(file, 'treshold: 1');
    expect(run.stdout).toMatch(new RegExp(`^::error file=scenarios/spa_price_question_sw\\.yaml,line=${line},col=5,title=parley%3A configuration error::.*"treshold"`, 'm'));
    expect(run.stderr).toMatch(/^error: scenarios\/spa_price_question_sw\.yaml:\d+:5: /m);
  });
});

describe('document reporters: the report on stdout and nothing else', () => {
  it('--format json (and --reporter json) prints report.json on stdout; people read stderr', async () => {
    const suite = copyExample('booking');
    const run = await parley(['run', '.', '--format', 'json', '--out', 'out'], suite);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(readFileSync(join(suite, 'out', 'report.json'), 'utf8'));
    const report = JSON.parse(run.stdout) as { results: Array<{ scenario_id: string; file?: string }> };
    expect(report.results.find((result) => result.scenario_id === 'spa_booking_codeswitch')?.file).toBe(CODESWITCH);
    expect(run.stderr).toContain('[8/8]');
    const viaReporter = await parley(['run', '.', '--reporter', 'json', '--out', 'out2'], suite);
    expect(JSON.parse(viaReporter.stdout)).toMatchObject({ suite: 'ratiba_booking', exit_code: 0 });
  });

  it('--reporter junit and --reporter markdown print junit.xml and summary.md; with console, the summary moves to stderr', async () => {
    const suite = copyExample('booking');
    const junit = await parley(['run', '.', '--reporter', 'junit', '--out', 'out'], suite);
    expect(junit.stdout).toBe(readFileSync(join(suite, 'out', 'junit.xml'), 'utf8'));
    expect(junit.stdout).toContain(`name="spa_booking_codeswitch" file="${CODESWITCH}" time="`);
    const markdown = await parley(['run', '.', '--reporter', 'markdown,console', '--out', 'md'], suite);
    expect(markdown.stdout).toBe(readFileSync(join(suite, 'md', 'summary.md'), 'utf8'));
    expect(markdown.stderr).toContain('│ scenario');
  });
});
