import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { manualClock, seededRandom } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { captureOutput } from '../test-support/capture-output.js';
import { REPO_ROOT } from '../test-support/example-copy.js';

/** A private copy of the example calibration folder (set, rubric, recording) as `<tmp>/calibration`. */
function exampleCalibration(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'parley-calibrate-'));
  cpSync(join(REPO_ROOT, 'calibration'), join(cwd, 'calibration'), {
    recursive: true,
    filter: (source) => !source.includes(`${join('calibration', 'reports')}`),
  });
  return cwd;
}

async function parley(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const output = captureOutput();
  const code = await main(args, { cwd, env, output, clock: manualClock(new Date('2026-12-07T09:00:00Z')), random: seededRandom(3) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

/** The example's judge-vs-human quadratic kappa of one axis, from a JSON report. */
function gateKappa(json: string, axis: string): number {
  const report = JSON.parse(json) as { gate: { axes: Array<{ axis: string; kappa_quadratic: number }> } };
  return report.gate.axes.find((entry) => entry.axis === axis)!.kappa_quadratic;
}

describe('parley calibrate report on the example set (offline, from the committed recording)', () => {
  it('replays the recorded judges, prints every table, writes the reports, and exits per the gate', async () => {
    const cwd = exampleCalibration();
    const result = await parley(['calibrate', 'report'], cwd);
    expect(result.stderr).toMatch(/^no judge session for calibration yet: replayed calibration\/recordings\/judge\.jsonl into session \S+ \(offline, no cost\)\n$/);
    for (const expected of ['FAIL gate', 'judge vs human', 'cross-check vs human', 'judge vs cross-check', 'human vs human', 'κ quadratic', '95% analytic', '95% bootstrap', 'α ordinal', 'α all raters', 'confusion matrix']) {
      expect(result.stdout).toContain(expected);
    }
    expect(result.stdout).toMatch(/cultural_appropriateness │ 0\.643 +│ \+0\.34 +│ quadratic kappa 0\.643 is below 0\.7/);
    expect(result.stdout).toContain('reports: calibration/reports/2026-12-07.md, calibration/reports/2026-12-07.json');
    expect(result.code).toBe(1);
    const markdown = readFileSync(join(cwd, 'calibration/reports/2026-12-07.md'), 'utf8');
    expect(markdown).toContain('## Gate: FAIL');
    const json = JSON.parse(readFileSync(join(cwd, 'calibration/reports/2026-12-07.json'), 'utf8')) as { session: { mode: string; rated: unknown }; comparisons: unknown[] };
    expect(json.session).toMatchObject({ mode: 'replay', rated: { judge: 25, cross_check: 25 } });
    expect(json.comparisons).toHaveLength(4);
  });

  it('passes once --min-kappa is lowered below the measured kappa, and fails again just above it', async () => {
    const cwd = exampleCalibration();
    const first = await parley(['calibrate', 'report', '--format', 'json'], cwd);
    expect(first.code).toBe(1);
    const measured = gateKappa(first.stdout, 'cultural_appropriateness');
    const below = await parley(['calibrate', 'report', '--min-kappa', String(Math.floor(measured * 100) / 100)], cwd);
    expect(below.stdout).toContain('PASS gate');
    expect(below.code).toBe(0);
    const above = await parley(['calibrate', 'report', '--min-kappa', String(Math.ceil(measured * 100) / 100), '--format', 'json'], cwd);
    expect(above.code).toBe(1);
    // The bias limit gates too: the judge is 0.34 points too generous on cultural appropriateness.
    const strictBias = await parley(['calibrate', 'report', '--min-kappa', '0.6', '--max-bias', '0.3'], cwd);
    expect(strictBias.stdout).toContain('bias +0.34 points is beyond ±0.3');
    expect(strictBias.code).toBe(1);
    // Every report after the first reused the stored session instead of replaying again.
    expect(below.stderr).toBe('');
  });

  it('exits 2 with file:line:column for a bad rating, and for bad flags', async () => {
    const cwd = exampleCalibration();
    const file = join(cwd, 'calibration/human_labelled.yaml');
    const text = readFileSync(file, 'utf8');
    const broken = text.replace('intent_comprehension: 5, response_naturalness: 5, cultural_appropriateness: 5 }', 'intent_comprehension: 7, response_naturalness: 5, cultural_appropriateness: 5 }');
    writeFileSync(file, broken);
    const line = broken.slice(0, broken.indexOf('intent_comprehension: 7')).split('\n').length;
    const result = await parley(['calibrate', 'report'], cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: calibration/human_labelled\\.yaml:${line}:\\d+: "intent_comprehension" must be at most 5, got number 7`));
    const badKappa = await parley(['calibrate', 'report', '--min-kappa', 'high'], cwd);
    expect(badKappa.code).toBe(2);
    expect(badKappa.stderr).toContain('--min-kappa must be a number from -1 to 1, got "high"');
    expect((await parley(['calibrate', 'report', '--resamples', '0'], cwd)).stderr).toContain('--resamples must be a positive integer, got "0"');
    expect((await parley(['calibrate', 'report', '--dir', 'nowhere'], cwd)).stderr).toContain('nowhere/human_labelled.yaml: file not found');
  });
});

describe('parley calibrate judge, status and import', () => {
  it('replays the judges into a session, and status shows it with the reviewers’ progress', async () => {
    const cwd = exampleCalibration();
    const before = await parley(['calibrate', 'status'], cwd);
    expect(before.stdout).toContain('calibration set calibration: 25 items, rubric 1.0.0, owner calibration-owner');
    expect(before.stdout).toContain('judges: never run on this set');
    expect(before.stdout).toMatch(/rev-a +│ 25 +│ 25 +│ 0/);
    const judged = await parley(['calibrate', 'judge'], cwd);
    expect(judged.stdout).toContain('(replay): 25 items × 2 raters');
    expect(judged.stdout).toContain('judge anthropic:claude-opus-4-7: 25 rated, 0 errors');
    expect(judged.code).toBe(0);
    const status = JSON.parse((await parley(['calibrate', 'status', '--format', 'json'], cwd)).stdout) as { last_session: { id: string; mode: string; ratings: number }; unrated: string[] };
    expect(status.last_session).toMatchObject({ mode: 'replay', ratings: 50 });
    expect(status.unrated).toEqual([]);
    const sessionId = status.last_session.id;
    const reported = await parley(['calibrate', 'report', '--session', sessionId.slice(0, 15), '--format', 'json'], cwd);
    expect((JSON.parse(reported.stdout) as { session: { id: string } }).session.id).toBe(sessionId);
    expect((await parley(['calibrate', 'report', '--session', 'nope'], cwd)).stderr).toContain('no calibration session "nope"');
  });

  it('reports the latest FINISHED session by default, says so, and leaves an unfinished one (a killed calibrate judge) out of the gate and the trend', async () => {
    const cwd = exampleCalibration();
    expect((await parley(['calibrate', 'judge'], cwd)).code).toBe(0);
    const { openCalibrationStore } = await import('@parley/calibration');
    const store = openCalibrationStore(join(cwd, '.parley/parley.db'));
    const killedId = '20261207-100000-dead00';
    try {
      const [finished] = store.sessions('calibration');
      // A later live session killed after 18 of 25 items: no finished_at, part of the ratings.
      store.createSession({ ...finished!, id: killedId, started_at: '2026-12-07T10:00:00.000Z', finished_at: null, mode: 'live' });
      const rated = [...new Set(store.ratings(finished!.id).map((rating) => rating.item_id))].slice(0, 18);
      for (const rating of store.ratings(finished!.id)) if (rated.includes(rating.item_id)) store.saveRating({ ...rating, session_id: killedId });
    } finally {
      store.close();
    }
    type Json = { session: { id: string; finished_at: string | null; selected_by: string; unfinished_left_out: string[]; rated: { judge: number } }; trend: Array<{ session_id: string }> };
    const byDefault = await parley(['calibrate', 'report', '--format', 'json'], cwd);
    const report = JSON.parse(byDefault.stdout) as Json;
    expect(report.session.id).not.toBe(killedId);
    expect(report.session).toMatchObject({ selected_by: 'latest_finished', unfinished_left_out: [killedId], rated: { judge: 25 } });
    expect(report.trend.map((entry) => entry.session_id)).not.toContain(killedId);
    const text = await parley(['calibrate', 'report'], cwd);
    expect(text.stdout).toContain(`session: the latest finished session (left out 1 newer unfinished session: ${killedId}; report one with --session ID)`);
    expect(readFileSync(join(cwd, 'calibration/reports/2026-12-07.md'), 'utf8')).toContain('the latest finished session (left out 1 newer unfinished session');
    // Asked for by id, the unfinished session is reported, and the header says what it is.
    const asked = await parley(['calibrate', 'report', '--session', killedId], cwd);
    expect(asked.stdout).toContain('session: chosen with --session, UNFINISHED: it rated only part of the set');
  });

  it('replay with no recording summarizes the 50 misses once, with the first two in full and what to do, in judge and in report', async () => {
    const cwd = exampleCalibration();
    rmSync(join(cwd, 'calibration/recordings'), { recursive: true });
    const judged = await parley(['calibrate', 'judge', '--mode', 'replay'], cwd);
    expect(judged.code).toBe(1);
    for (const result of [judged, await parley(['calibrate', 'report'], cwd)]) {
      const lines = result.stdout.split('\n');
      expect(lines).toContainEqual(expect.stringMatching(/^(warning: )?50 ratings could not be made \(25 items; judge 25, cross-check 25\): all replay misses$/));
      // Two misses in full (each names the missing recording), then one line for the other 48.
      expect(lines.filter((line) => line.includes('replay_miss'))).toHaveLength(2);
      expect(lines.filter((line) => line.includes('no recording at'))).toHaveLength(2);
      expect(lines).toContain('  … and 48 more (`--format json` lists every one)');
      expect(lines).toContain(
        '  to rate them: `parley calibrate judge --mode record` calls the judges live and writes the recording that replay reads, or `--mode live` rates without writing one',
      );
      expect(lines.length, result.stdout).toBeLessThan(80);
    }
    expect(judged.stdout.split('\n').length).toBeLessThan(15);
    // The JSON still has every rating's error (a fresh copy: the test clock would give the same session id).
    const fresh = exampleCalibration();
    rmSync(join(fresh, 'calibration/recordings'), { recursive: true });
    const json = JSON.parse((await parley(['calibrate', 'judge', '--mode', 'replay', '--format', 'json'], fresh)).stdout) as { ratings: Array<{ error: string | null }> };
    expect(json.ratings.filter((rating) => rating.error?.startsWith('replay_miss:'))).toHaveLength(50);
  });

  it('imports the example inbox into a new folder: 25 added, the re-sent duplicate skipped, all masked', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parley-calibrate-import-'));
    const result = await parley(['calibrate', 'import', join(REPO_ROOT, 'calibration/inbox/2026-11-production.jsonl'), '--dir', 'fresh'], cwd);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('25 added, 1 skipped, 0 refused → fresh/human_labelled.yaml');
    expect(result.stdout).toContain('already in the set as cal-2026-12-013 (same content digest)');
    const text = readFileSync(join(cwd, 'fresh/human_labelled.yaml'), 'utf8');
    for (const personal of ['Amina Wanjiru', '0712 345 678', 'faith.njeri', 'Brian']) expect(text).not.toContain(personal);
    const again = await parley(['calibrate', 'import', join(REPO_ROOT, 'calibration/inbox/2026-11-production.jsonl'), '--dir', 'fresh', '--format', 'json'], cwd);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: [], refused: [] });
    const unchanged = await parley(['calibrate', 'import', join(REPO_ROOT, 'calibration/inbox/2026-11-production.jsonl'), '--dir', 'fresh'], cwd);
    expect(unchanged.stdout.split('\n')[0]).toBe('0 added, 26 skipped, 0 refused: fresh/human_labelled.yaml unchanged');
    expect(readFileSync(join(cwd, 'fresh/human_labelled.yaml'), 'utf8')).toBe(text);
    expect((await parley(['calibrate', 'import', '--dir', 'fresh'], cwd)).code).toBe(2);
  });

  it('lists the first 20 refused conversations of a large log, then how many more (was: one line each, 20,000 lines)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parley-calibrate-import-'));
    const conversation = (index: number) => ({
      conversation_id: `wa:no-language:${index}`,
      vertical: 'salon',
      turns: [
        { role: 'user', content: `Hello ${index}`, timestamp: '2026-11-27T09:00:00Z' },
        { role: 'assistant', content: 'Hello! How can I help?', timestamp: '2026-11-27T09:00:01Z' },
      ],
    });
    writeFileSync(join(cwd, 'log.jsonl'), Array.from({ length: 500 }, (_, index) => `${JSON.stringify(conversation(index))}\n`).join(''));
    const result = await parley(['calibrate', 'import', 'log.jsonl', '--dir', 'fresh'], cwd);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('0 added, 0 skipped, 500 refused: nothing written (no fresh/human_labelled.yaml yet)');
    expect(existsSync(join(cwd, 'fresh', 'human_labelled.yaml'))).toBe(false);
    expect(lines.filter((line) => line.includes('refused  log.jsonl:'))).toHaveLength(20);
    expect(lines).toContain('  … and 480 more (`--format json` lists every one)');
    expect(lines.length).toBeLessThan(30);
    const json = JSON.parse((await parley(['calibrate', 'import', 'log.jsonl', '--dir', 'fresh', '--format', 'json'], cwd)).stdout) as { refused: unknown[] };
    expect(json.refused).toHaveLength(500);
  });

  it('report on a new, empty set says to import items first (judging an empty set is refused too)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parley-calibrate-empty-'));
    cpSync(join(REPO_ROOT, 'calibration/rubric.md'), join(cwd, 'calibration/rubric.md'));
    writeFileSync(join(cwd, 'calibration/human_labelled.yaml'), 'schema_version: 1\nrubric_version: "1.0.0"\nowner: x\naxes: [intent_comprehension, response_naturalness, cultural_appropriateness]\nitems: []\n');
    const result = await parley(['calibrate', 'report'], cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: no judge ratings for calibration yet, and the set has no items: add some with `parley calibrate import FILE --dir calibration`, then run `parley calibrate judge --dir calibration`\n',
    );
  });

  it('importing into a new folder writes a starter rubric, so the set can be rated and judged at once; an edited rubric is never replaced', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parley-calibrate-import-'));
    const inbox = join(REPO_ROOT, 'calibration/inbox/2026-11-production.jsonl');
    const result = await parley(['calibrate', 'import', inbox, '--dir', 'fresh'], cwd);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wrote a starter rubric, fresh/rubric.md: edit it to describe your agents before the first rating session');
    const rubric = readFileSync(join(cwd, 'fresh/rubric.md'), 'utf8');
    expect(rubric).toMatch(/^---\nversion: 1\.0\.0\n---\n/);
    // The judges read it: the session runs (exit 1 here: there is no recording to replay) instead
    // of stopping at "rubric.md: file not found" (exit 2).
    const judged = await parley(['calibrate', 'judge', '--dir', 'fresh', '--mode', 'replay'], cwd);
    expect(judged.stderr).not.toContain('rubric.md');
    expect(judged.code).toBe(1);

    writeFileSync(join(cwd, 'fresh/rubric.md'), rubric.replace('# Calibration rubric (starter)', '# Our rubric'));
    writeFileSync(join(cwd, 'more.jsonl'), `${JSON.stringify({ conversation_id: 'c-1', language: 'en', turns: [{ role: 'user', content: 'Hello' }, { role: 'assistant', content: 'Hi, how can I help?' }] })}\n`);
    const more = await parley(['calibrate', 'import', 'more.jsonl', '--dir', 'fresh'], cwd);
    expect(more.stdout).toMatch(/^1 added/);
    expect(more.stdout).not.toContain('starter rubric');
    expect(readFileSync(join(cwd, 'fresh/rubric.md'), 'utf8')).toContain('# Our rubric');
  });
});

describe('the parley binary', () => {
  it('reports on a fresh copy of the example with no keys and no network', () => {
    const cwd = exampleCalibration();
    const support = join(REPO_ROOT, 'apps/cli/src/test-support');
    const run = (args: string[], moduleLog: string) =>
      spawnSync(process.execPath, ['--require', join(support, 'no-network.cjs'), '--import', join(support, 'trace-modules.mjs'), join(REPO_ROOT, 'apps/cli/bin/parley.js'), ...args], {
        cwd,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', PARLEY_MODULE_LOG: join(cwd, moduleLog) },
        encoding: 'utf8',
      });
    /** The bundle's bytes a run loaded, and the modules it loaded from elsewhere. */
    const loaded = (moduleLog: string) => {
      const modules = readFileSync(join(cwd, moduleLog), 'utf8').split('\n').filter((url) => url !== '');
      const bundle = modules.filter((url) => url.includes('/dist/bundle/'));
      return { bytes: bundle.reduce((sum, url) => sum + statSync(fileURLToPath(url)).size, 0), others: modules.filter((url) => !url.includes('/dist/bundle/')) };
    };
    const failing = run(['calibrate', 'report'], 'replay.log');
    expect(failing.stderr).toContain('replayed calibration/recordings/judge.jsonl');
    expect(failing.stdout).toContain('FAIL gate');
    expect(failing.status).toBe(1);
    expect(run(['calibrate', 'report', '--min-kappa', '0.6'], 'stored.log').status).toBe(0);
    expect(existsSync(join(cwd, '.parley/parley.db'))).toBe(true);
    // A report of a stored session loads the report's code by name, not the library's index: not
    // the judge session and its providers (loaded above to replay the recording), the importers'
    // redaction or the set editor (~730 kB of bundle when it did). Every command's registration is
    // in the entry file since --help reads it as one (~65 kB, main.ts).
    const stored = loaded('stored.log');
    expect(stored.bytes).toBeLessThan(600_000);
    expect(stored.bytes).toBeLessThan(loaded('replay.log').bytes - 20_000);
    expect(stored.others.join('\n')).not.toMatch(/node_modules\/(openai|@anthropic-ai|ink|react)\//);
  });
});
