import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { copyExample, REPO_ROOT } from './test-support/example-copy.js';
import { parleyAsync } from './test-support/parley-process.js';
import { until } from './test-support/until.js';

/** The booking example's scenarios that use its two code metrics (metrics/booking_reference.mts, metrics/booked_slot_offered.py). */
const USING_CODE_METRICS = ['spa_booking_codeswitch', 'spa_booking_english_happy', 'spa_booking_swahili_happy', 'spa_reschedule_sw', 'spa_slot_unavailable_en'];
const CODE_METRICS = ['booking_reference', 'booked_slot_offered'];

interface ReportJson {
  exit_code: number;
  config_fingerprint?: string;
  selection?: { total: number; selected: number; changed_since?: { ref: string; changed_files: number; affecting: string[] } };
  results: Array<{
    scenario_id: string;
    status: string;
    reason: string;
    metrics: Array<{ metric: string; version: string; passed: boolean; score: number | null; reason: string; error?: boolean; details?: Record<string, unknown> }>;
  }>;
}

let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

/** Replays the suite with every provider pointed at fake-llm, so any network call would be counted there. */
async function replay(suite: string, args: string[], out: string) {
  llm ??= await startFakeLlm({});
  const env = { OPENAI_BASE_URL: llm.openaiBaseUrl, ANTHROPIC_BASE_URL: llm.anthropicBaseUrl, OPENAI_API_KEY: 'sk-fake-metrics', ANTHROPIC_API_KEY: 'sk-ant-fake-metrics' };
  const run = await parleyAsync(['run', '.', '--out', out, ...args], { cwd: suite, env });
  const report = JSON.parse(readFileSync(join(suite, out, 'report.json'), 'utf8')) as ReportJson;
  return { run, report };
}

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'Parley Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Parley Test', GIT_COMMITTER_EMAIL: 'test@example.com' };
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' });
}

function append(file: string, text: string): void {
  writeFileSync(file, `${readFileSync(file, 'utf8')}${text}`);
}

describe('code metrics in the booking example (the real binary)', () => {
  it('replays both (TypeScript module, Python command) with no network call, their per-message results kept as judges keep theirs', async () => {
    // A copy without node_modules: 'parley-eval' in booking_reference.mts resolves to the Parley that runs it.
    const suite = copyExample('booking');
    const { run, report } = await replay(suite, [], 'out');
    expect(run.status, run.stderr).toBe(0);
    expect(llm!.requests).toHaveLength(0);
    for (const id of USING_CODE_METRICS) {
      const result = report.results.find((entry) => entry.scenario_id === id)!;
      for (const name of CODE_METRICS) {
        const metric = result.metrics.find((entry) => entry.metric === name)!;
        expect(metric, `${id} ${name}`).toMatchObject({ version: '1.0.0', passed: true, score: 1 });
        expect(metric.error).toBeUndefined();
        const scores = metric.details?.['message_scores'] as Array<{ message_index: number; score: number; reason: string }>;
        expect(scores.length).toBeGreaterThan(0);
        expect(scores.every((entry) => Number.isInteger(entry.message_index) && entry.score === 1 && entry.reason.length > 0)).toBe(true);
      }
    }
    const english = report.results.find((entry) => entry.scenario_id === 'spa_booking_english_happy')!;
    expect(english.metrics.find((entry) => entry.metric === 'booking_reference')!.details?.['message_scores']).toEqual([
      { message_index: 7, score: 1, reason: 'states BK-1057, as the booking tool returned' },
    ]);
    expect(english.metrics.find((entry) => entry.metric === 'booked_slot_offered')!.reason).toBe('create_booking for 2026-12-03 15:00, an offered slot');
    // Shown like a judge's message scores: the HTML report is built from report.json alone.
    expect(existsSync(join(suite, 'out', 'report.html'))).toBe(true);
  });

  it('a metric that throws, or prints what is not JSON, is an error result naming it; the run goes on', async () => {
    const suite = copyExample('booking');
    writeFileSync(join(suite, 'metrics', 'booking_reference.mts'), `export default { evaluate(): never { throw new Error('catalogue unreachable'); } };\n`);
    writeFileSync(join(suite, 'metrics', 'booked_slot_offered.py'), `print("all good")\n`);
    const { run, report } = await replay(suite, [], 'out');
    expect(run.status, run.stderr).toBe(1);
    expect(report.results).toHaveLength(8);
    const english = report.results.find((entry) => entry.scenario_id === 'spa_booking_english_happy')!;
    expect(english.status).toBe('error');
    expect(english.metrics.find((entry) => entry.metric === 'booking_reference')).toMatchObject({
      error: true,
      passed: false,
      score: null,
      reason: 'module booking_reference.mts threw: catalogue unreachable',
    });
    expect(english.metrics.find((entry) => entry.metric === 'booked_slot_offered')).toMatchObject({
      error: true,
      reason: 'command "python3 metrics/booked_slot_offered.py" printed something that is not one JSON value: all good',
    });
    // Every output shows the reason under the metric's name, which it does not repeat (report.html draws it from the same data).
    expect(english.reason).toContain('booking_reference: module booking_reference.mts threw: catalogue unreachable');
    for (const output of [run.stdout, ...['report.json', 'junit.xml', 'summary.md', 'events.jsonl'].map((file) => readFileSync(join(suite, 'out', file), 'utf8'))]) {
      expect(output).toContain('module booking_reference.mts threw: catalogue unreachable');
      expect(output).not.toMatch(/metric (booking_reference|booked_slot_offered):/);
    }
    // The scenarios without code metrics are untouched.
    expect(report.results.find((entry) => entry.scenario_id === 'spa_price_question_sw')!.status).toBe('pass');
    expect(llm!.requests).toHaveLength(0);
  });

  it('--changed-since reruns exactly the scenarios using an edited metric (its module, its script), and the edit changes the fingerprint', async () => {
    const suite = copyExample('booking');
    git(suite, 'init', '--quiet', '--initial-branch=main');
    writeFileSync(join(suite, '.gitignore'), '.parley/\nout*/\n');
    git(suite, 'add', '.');
    git(suite, 'commit', '--quiet', '-m', 'suite');
    const before = await replay(suite, [], 'out-before');

    append(join(suite, 'metrics', 'booking_reference.mts'), '// Reference numbers are four digits since 2025.\n');
    const module = await replay(suite, ['--changed-since', 'HEAD'], 'out-module');
    expect(module.run.status, module.run.stderr).toBe(0);
    expect(module.report.results.map((entry) => entry.scenario_id)).toEqual(USING_CODE_METRICS);
    expect(module.report.selection?.changed_since).toMatchObject({ ref: 'HEAD', changed_files: 1, affecting: ['metrics/booking_reference.mts'] });
    expect(module.run.stdout).toContain('Gate matrix: 5 of 8 scenarios affected by changes since HEAD (metrics/booking_reference.mts).');
    expect(module.report.config_fingerprint).toBeDefined();
    expect(module.report.config_fingerprint).not.toBe(before.report.config_fingerprint);
    git(suite, 'checkout', '--quiet', '--', '.');

    append(join(suite, 'metrics', 'booked_slot_offered.py'), '# Slots are HH:MM, 24-hour.\n');
    const script = await replay(suite, ['--changed-since', 'HEAD'], 'out-script');
    expect(script.report.results.map((entry) => entry.scenario_id)).toEqual(USING_CODE_METRICS);
    expect(script.report.selection?.changed_since?.affecting).toEqual(['metrics/booked_slot_offered.py']);
    git(suite, 'checkout', '--quiet', '--', '.');

    // Untouched code: nothing to rerun, and the fingerprint is the committed one.
    const unchanged = await replay(suite, [], 'out-after');
    expect(unchanged.report.config_fingerprint).toBe(before.report.config_fingerprint);
    expect(llm!.requests).toHaveLength(0);
  });

  it("starts a module metric's worker thread once per run: every evaluation of every scenario is served by it", async () => {
    const suite = copyExample('booking');
    writeFileSync(join(suite, 'metrics', 'booking_reference.mts'), countingMetric(join(suite, 'loads.count')));
    const { run, report } = await replay(suite, [], 'out');
    expect(run.status, run.stderr).toBe(0);
    const reasons = USING_CODE_METRICS.map((id) => report.results.find((entry) => entry.scenario_id === id)!.metrics.find((entry) => entry.metric === 'booking_reference')!.reason);
    // Loaded once; the five evaluations (concurrency 4: scenarios take turns at the thread) served 1 to 5.
    expect(readFileSync(join(suite, 'loads.count'), 'utf8')).toBe('1');
    expect(reasons.map((reason) => reason.replace(/served \d+/, 'served N'))).toEqual(USING_CODE_METRICS.map(() => 'loads 1, served N'));
    expect(reasons.map((reason) => Number(/served (\d+)/.exec(reason)![1])).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("Ctrl-C ends the run's metric threads: the run stops (exit 130) while a metric is evaluating and another's thread is idle", async () => {
    const suite = copyExample('booking');
    writeFileSync(join(suite, 'metrics', 'booking_reference.mts'), countingMetric(join(suite, 'loads.count')));
    writeFileSync(join(suite, 'metrics', 'booking_reference.yaml'), 'name: booking_reference\nversion: 1.0.0\nkind: module\nmodule: metrics/booking_reference.mts\ntimeout_ms: 600000\n');
    // The command metric runs after the module metric in each scenario: it hangs, so the module's thread is idle then.
    writeFileSync(
      join(suite, 'metrics', 'booked_slot_offered.py'),
      'import json, sys, time\ndocument = json.load(sys.stdin)\nopen("hung-" + document["scenario"]["id"], "w").write("yes")\ntime.sleep(600)\n',
    );
    writeFileSync(join(suite, 'metrics', 'booked_slot_offered.yaml'), 'name: booked_slot_offered\nversion: 1.0.0\nkind: command\ncommand: [python3, metrics/booked_slot_offered.py]\ntimeout_ms: 600000\n');
    const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/bin/parley.js'), 'run', '.', '--out', 'out'], {
      cwd: suite,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
    // A condition, not a clock: the first hanging evaluation has begun.
    await until(() => readdirSync(suite).some((name) => name.startsWith('hung-')));
    expect(readFileSync(join(suite, 'loads.count'), 'utf8')).toBe('1');
    child.kill('SIGINT');
    // An idle thread left running would keep the process alive: the test would time out here.
    expect(await exited, stderr).toBe(130);
    const report = JSON.parse(readFileSync(join(suite, 'out', 'report.json'), 'utf8')) as ReportJson & { status: string };
    expect(report.status).toBe('interrupted');
  });

  it('a bad metric file is a config error at file:line:column, exit 2', async () => {
    const suite = copyExample('booking');
    writeFileSync(join(suite, 'metrics', 'booking_reference.yaml'), 'name: booking_reference\nversion: 1.0.0\nkind: modul\nmodule: metrics/booking_reference.mts\n');
    writeFileSync(join(suite, 'metrics', 'booked_slot_offered.yaml'), 'name: booked_slot_offered\nversion: 1.0.0\nkind: module\nmodule: metrics/missing.ts\n');
    const validate = await parleyAsync(['validate', '.'], { cwd: suite });
    expect(validate.status).toBe(2);
    expect(validate.stderr + validate.stdout).toContain('metrics/booking_reference.yaml:3:7');
    expect(validate.stderr + validate.stdout).toContain('unknown metric kind "modul": use rubric (the default), module or command (did you mean "module"?)');
    // One error per broken file: its uses (with params:) are not reported as well.
    expect(validate.stderr + validate.stdout).not.toContain('unknown key "params"');
    expect(validate.stderr + validate.stdout).toContain('metrics/booked_slot_offered.yaml:4:9');
    expect(validate.stderr + validate.stdout).toContain('the module "metrics/missing.ts" does not exist');
  });
});

/**
 * A module metric that counts its loads in `counter` (a new thread loads the module again) and
 * answers with how many loads there were and how many evaluations this loaded copy served.
 */
function countingMetric(counter: string): string {
  return `import { readFileSync, writeFileSync } from 'node:fs';
let loads = 0;
try { loads = Number(readFileSync(${JSON.stringify(counter)}, 'utf8')); } catch {}
loads += 1;
writeFileSync(${JSON.stringify(counter)}, String(loads));
let served = 0;
export default { evaluate() { served += 1; return { score: 1, passed: true, reason: 'loads ' + loads + ', served ' + served }; } };
`;
}
