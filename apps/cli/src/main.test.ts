import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { main } from './main.js';
import { captureOutput } from './test-support/capture-output.js';
import { copyExample } from './test-support/example-copy.js';

let seed = 100;
async function parley(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const output = captureOutput();
  seed += 1;
  const code = await main(argv, { cwd, env, output, clock: manualClock(), random: seededRandom(seed) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

describe('parley run', () => {
  it('replays the booking example offline, prints a summary table and writes the three reports', async () => {
    const suite = copyExample('booking');
    const result = await parley(['run', '.', '--out', 'reports'], suite);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/│ scenario\s+│ agent\s+│ gate\s+│ status\s+│ reason/);
    expect(result.stdout).toContain('spa_booking_swahili_happy');
    expect(result.stdout).toMatch(/PASS · 8 scenarios: 7 pass, 1 fail · replay/);
    expect(result.stderr).toContain('[8/8]');
    for (const file of ['report.json', 'junit.xml', 'summary.md']) expect(existsSync(join(suite, 'reports', file))).toBe(true);
    const report = JSON.parse(readFileSync(join(suite, 'reports', 'report.json'), 'utf8')) as { exit_code: number; results: unknown[] };
    expect(report.exit_code).toBe(0);
    expect(report.results).toHaveLength(8);
  });

  it('fails with exit 1 and names the failing expectation and its reason in the console and the report', async () => {
    const suite = copyExample('booking');
    const file = join(suite, 'scenarios', 'spa_price_question_sw.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('forbidden: ["reservation"]', 'forbidden: ["reservation", "discount"]'));
    const result = await parley(['run', '.', '--out', 'reports'], suite);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ spa_price_question_sw (fail)');
    expect(result.stdout).toMatch(/content_signals@1\.0\.0: forbidden "discount" found in assistant message 2/);
    const report = JSON.parse(readFileSync(join(suite, 'reports', 'report.json'), 'utf8')) as {
      status: string;
      results: Array<{ scenario_id: string; status: string; reason: string; metrics: Array<{ passed: boolean; reason: string }> }>;
    };
    expect(report.status).toBe('fail');
    const failing = report.results.find((entry) => entry.scenario_id === 'spa_price_question_sw')!;
    expect(failing.status).toBe('fail');
    expect(failing.reason).toContain('forbidden "discount"');
    expect(failing.metrics.filter((metric) => !metric.passed).map((metric) => metric.reason)).toEqual([
      expect.stringContaining('forbidden "discount" found'),
    ]);
  });

  it('exits 2 with file:line:column for broken YAML', async () => {
    const suite = copyExample('booking');
    writeFileSync(join(suite, 'scenarios', 'spa_reschedule_sw.yaml'), 'id: spa_reschedule_sw\nagent: booking\nuser:\n  opening: "unterminated\n');
    const result = await parley(['run', '.'], suite);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: scenarios\/spa_reschedule_sw\.yaml:\d+:\d+: /m);
  });

  it('exits 2 for an unknown key, with a suggestion', async () => {
    const suite = copyExample('booking');
    const file = join(suite, 'scenarios', 'spa_price_question_sw.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('    max: 4', '    max: 4\n    treshold: 1'));
    const result = await parley(['validate', '.'], suite);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/scenarios\/spa_price_question_sw\.yaml:\d+:5: .*"treshold".*did you mean "threshold"/);
  });

  it('validates one scenario file in its suite, reading no other scenario; run refuses it naming the suite', async () => {
    const suite = copyExample('booking');
    // Another scenario broken: the whole suite is invalid, the one file given is not.
    writeFileSync(join(suite, 'scenarios', 'spa_reschedule_sw.yaml'), 'id: spa_reschedule_sw\nagent: [\n');
    expect((await parley(['validate', '.'], suite)).code).toBe(2);
    const one = await parley(['validate', 'scenarios/spa_price_question_sw.yaml'], suite);
    expect(one.stderr).toBe('');
    expect(one.code).toBe(0);
    expect(one.stdout).toBe('valid: suite ratiba_booking · 1 scenario (scenarios/spa_price_question_sw.yaml alone) · 2 agents · 5 metrics\n');
    const file = join(suite, 'scenarios', 'spa_price_question_sw.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('    max: 4', '    max: 4\n    treshold: 1'));
    const broken = await parley(['validate', join(suite, 'scenarios', 'spa_price_question_sw.yaml')], tmpdir());
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/scenarios\/spa_price_question_sw\.yaml:\d+:5: .*"treshold".*did you mean "threshold"/);
    const run = await parley(['run', 'scenarios/spa_price_question_sw.yaml'], suite);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: scenarios/spa_price_question_sw.yaml:1:1: a scenario file, not a suite (parley.yaml): its suite is ../parley.yaml\n');
  });

  it('exits 2 for unknown flags, unknown reporters and bad values', async () => {
    const suite = copyExample('booking');
    const unknown = await parley(['run', '.', '--frobnicate'], suite);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--frobnicate'");
    const unknownReporter = await parley(['run', '.', '--reporter', 'tap'], suite);
    expect(unknownReporter.code).toBe(2);
    expect(unknownReporter.stderr).toContain('--reporter must be one of console, json, junit, markdown, github, html, got "tap"');
    const twoDocuments = await parley(['run', '.', '--reporter', 'json', '--reporter', 'junit'], suite);
    expect(twoDocuments.code).toBe(2);
    expect(twoDocuments.stderr).toContain('--reporter json and junit: each prints a document on stdout, choose one');
    const badMode = await parley(['run', '.', '--mode', 'fast'], suite);
    expect(badMode.code).toBe(2);
  });

  it('exits 2 when the suite folder has no parley.yaml', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'parley-empty-'));
    const result = await parley(['run', '.'], empty);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('parley.yaml');
  });

  it('runs only the scenarios a glob or tag selects', async () => {
    const suite = copyExample('municipal');
    const result = await parley(['run', '.', '--scenario', 'gbv_*', '--out', 'reports'], suite);
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(join(suite, 'reports', 'report.json'), 'utf8')) as { results: Array<{ scenario_id: string }> };
    expect(report.results.map((entry) => entry.scenario_id)).toEqual(['gbv_case_extraction_af', 'gbv_immediate_danger_zu', 'gbv_sexual_assault_en', 'gbv_shelter_zu', 'gbv_support_en']);
  });
});

describe('parley run: gates and strictness', () => {
  it('an expectation marked gate: advisory lowers its scenario to warn, and --strict makes that fail', async () => {
    const suite = copyExample('booking');
    const file = join(suite, 'scenarios', 'spa_price_question_sw.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('expect:\n', 'expect:\n  - { metric: content_signals, required: ["punguzo maalum"], gate: advisory }\n'));
    const relaxed = await parley(['run', '.', '--scenario', 'spa_price*', '--out', 'a'], suite);
    expect(relaxed.code).toBe(0);
    expect(relaxed.stdout).toMatch(/spa_price_question_sw\s+│ booking\s+│ blocking │ warn/);
    const strict = await parley(['run', '.', '--scenario', 'spa_price*', '--out', 'b', '--strict'], suite);
    expect(strict.code).toBe(1);
  });

  it('--strict turns validation warnings into a configuration error (exit 2)', async () => {
    const suite = copyExample('booking');
    const file = join(suite, 'parley.yaml');
    // The cross-check judge becomes the agent's own model: a warning, an error under --strict.
    writeFileSync(file, readFileSync(file, 'utf8').replace('model: gpt-4.1, sample', 'model: gpt-4.1-mini, sample'));
    const plain = await parley(['run', '.', '--out', 'a'], suite);
    expect(plain.code).toBe(0);
    // Without --strict the run says what validate says, in its output and its report.
    expect(plain.stdout + plain.stderr).toMatch(/parley\.yaml:\d+:\d+: the judge model "gpt-4\.1-mini" is also the model of agent "booking"/);
    const report = JSON.parse(readFileSync(join(suite, 'a', 'report.json'), 'utf8')) as { warnings?: Array<{ kind: string; message: string }> };
    expect(report.warnings).toContainEqual(expect.objectContaining({ kind: 'suite_warning', message: expect.stringMatching(/^parley\.yaml:\d+:\d+: the judge model "gpt-4\.1-mini"/) }));
    const strict = await parley(['run', '.', '--out', 'b', '--strict'], suite);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/parley\.yaml:\d+:\d+: the judge model "gpt-4\.1-mini" is also the model of agent "booking"/);
  });

  it('a damaged recording is a bad file: exit 2 naming file and line', async () => {
    const suite = copyExample('booking');
    const file = join(suite, 'recordings', 'spa_reschedule_sw.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1] = '{"v": 1, "role": "agent", broken';
    writeFileSync(file, lines.join('\n'));
    const result = await parley(['run', '.', '--out', 'a'], suite);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/recordings\/spa_reschedule_sw\.jsonl:2:27: not valid JSON/);
  });
});

describe('parley validate', () => {
  it('accepts both examples', async () => {
    for (const name of ['booking', 'municipal'] as const) {
      const result = await parley(['validate', '.'], copyExample(name));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^valid: suite \w+ · \d+ scenarios/);
    }
  });

  it('reads the recordings a replay would read: a damaged one is exit 2 at its line and column, as `run` says; other recordings are not its business', async () => {
    const suite = copyExample('booking');
    const file = join(suite, 'recordings', 'spa_reschedule_sw.jsonl');
    const original = readFileSync(file, 'utf8');
    const lines = original.split('\n');
    lines[1] = '{"v": 1, "role": "agent", broken';
    writeFileSync(file, lines.join('\n'));
    const whole = await parley(['validate', '.'], suite);
    expect(whole.code).toBe(2);
    expect(whole.stderr).toMatch(/recordings\/spa_reschedule_sw\.jsonl:2:27: not valid JSON/);
    const json = await parley(['validate', '.', '--format', 'json'], suite);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: false, problems: [{ file: 'recordings/spa_reschedule_sw.jsonl', line: 2, column: 27 }] });
    // A recording of a comparison case (`<id>@<agent>`) is read too; one of an unknown id is not.
    writeFileSync(file, original);
    writeFileSync(join(suite, 'recordings', 'spa_price_question_sw@other.jsonl'), 'not json\n');
    writeFileSync(join(suite, 'recordings', 'retired_scenario.jsonl'), 'not json\n');
    const comparison = await parley(['validate', '.'], suite);
    expect(comparison.code).toBe(2);
    expect(comparison.stderr).toMatch(/recordings\/spa_price_question_sw@other\.jsonl:1:1: not valid JSON/);
    expect(comparison.stderr).not.toContain('retired_scenario');
    expect(comparison.stderr).not.toContain('spa_reschedule_sw');
    // One scenario file given alone: only its recordings are read.
    expect((await parley(['validate', 'scenarios/spa_reschedule_sw.yaml'], suite)).code).toBe(0);
  });
});

describe('parley runs', () => {
  it('lists stored runs newest first and shows one by id prefix', async () => {
    const suite = copyExample('booking');
    await parley(['run', '.', '--scenario', 'spa_price*', '--out', 'a'], suite);
    await parley(['run', '.', '--scenario', 'spa_resch*', '--out', 'b'], suite);
    const list = await parley(['runs', 'list'], suite);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('ratiba_booking');
    const ids = [...list.stdout.matchAll(/\b(\d{8}-\d{6}-[0-9a-f]{6})\b/g)].map((match) => match[1]!);
    expect(ids).toHaveLength(2);
    const show = await parley(['runs', 'show', ids[0]!.slice(0, 20)], suite);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/spa_reschedule_sw|spa_price_question_sw/);
    const missing = await parley(['runs', 'show', 'nope'], suite);
    expect(missing.code).toBe(2);
  });
});
