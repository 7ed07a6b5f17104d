/**
 * `npm run bench:history -- [--runs-in-history 10000] [--keep]`: what the run history's retention
 * costs (docs/decisions.md, "History retention"). On a copy of examples/booking whose
 * `.parley/parley.db` holds N finished runs of 4 results each (written through the store's own API,
 * with a report folder each), it times
 *
 * - `parley run` (replay, 8 scenarios) with `settings.history.keep_runs: N`, i.e. with the prune
 *   after the run removing the oldest run, against the same run with `history: {}` (no prune);
 * - that prune alone (`pruneHistory` bounded as after a run), median of 5;
 * - `parley runs prune` down to the last 200 runs, with the database's size before and after.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ScenarioResult } from '@parley/core';
import { defaultStorePath, openStore, pruneHistory } from '@parley/store';
import { measureCommand, median } from './measure-command.js';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const PARLEY_BIN = join(REPO_ROOT, 'apps', 'cli', 'bin', 'parley.js');
const SUITE = 'ratiba_booking';
const SCENARIOS = ['spa_booking_sw', 'spa_cancel_en', 'spa_reschedule_sw', 'spa_slot_unavailable_en'];

function storedResult(scenarioId: string): ScenarioResult {
  const content = 'Habari! Nataka massage Jumamosi asubuhi saa nne, tafadhali. '.repeat(8);
  return {
    scenario_id: scenarioId,
    agent: 'booking',
    gate: 'blocking',
    tags: [],
    metadata_only: false,
    status: 'pass',
    reason: 'all expectations met',
    metrics: [{ metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: true, reason: 'present' }],
    transcript: { turns: Array.from({ length: 8 }, (_, turn) => ({ role: turn % 2 === 0 ? ('user' as const) : ('assistant' as const), content, turn })), ended_by: 'max_turns' },
    cost: { input_tokens: 10, output_tokens: 3, usd: 0, calls: 1 },
  };
}

/** N finished runs, one a minute up to now, each with its report folder under .parley/runs. */
function seedHistory(project: string, count: number): void {
  const store = openStore(defaultStorePath(project));
  const now = Date.now();
  try {
    for (let index = 0; index < count; index += 1) {
      const id = `seeded-${String(index).padStart(6, '0')}`;
      const outDir = join(project, '.parley', 'runs', id);
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, 'report.json'), `{"run_id":"${id}"}\n`);
      const started = new Date(now - (count - index) * 60_000).toISOString();
      store.createRun({ id, suite: SUITE, mode: 'replay', started_at: started, parley_version: '0.1.0', options: { mode: 'replay' }, out_dir: outDir });
      store.saveScenarioResults(id, SCENARIOS.map(storedResult));
      store.finishRun(id, { status: 'pass', exit_code: 0, finished_at: started, duration_ms: 1000, cost: { input_tokens: 40, output_tokens: 12, usd: 0, calls: 4 }, counts: { pass: 4, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0 } });
    }
  } finally {
    store.close();
  }
}

function setHistory(project: string, history: string): void {
  const file = join(project, 'parley.yaml');
  const text = readFileSync(file, 'utf8').replace(/\n {2}history: .*\n/, '\n');
  writeFileSync(file, text.replace(/\nsettings:\n/, `\nsettings:\n  history: ${history}\n`));
}

async function timedRun(project: string): Promise<number> {
  const measured = await measureCommand({ argv: [process.execPath, PARLEY_BIN, 'run', '.'], cwd: project, env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' } });
  if (measured.exitCode !== 0) throw new Error(`parley run exited ${measured.exitCode}`);
  return measured.wallSeconds;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'runs-in-history': { type: 'string', default: '10000' }, keep: { type: 'boolean', default: false } } });
  const count = Number(values['runs-in-history']);
  if (!Number.isSafeInteger(count) || count < 300) {
    process.stderr.write('bench:history: --runs-in-history takes a whole number ≥ 300\n');
    return 2;
  }
  const root = mkdtempSync(join(tmpdir(), 'parley-bench-history-'));
  const project = join(root, 'booking');
  try {
    cpSync(join(REPO_ROOT, 'examples', 'booking'), project, { recursive: true, filter: (path) => !path.includes(`${join('booking', '.parley')}`) });
    let started = performance.now();
    seedHistory(project, count);
    process.stderr.write(`bench:history: seeded ${count} runs in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

    const withoutPrune: number[] = [];
    const withPrune: number[] = [];
    for (let repetition = 0; repetition < 3; repetition += 1) {
      setHistory(project, '{}');
      withoutPrune.push(await timedRun(project));
      setHistory(project, `{ keep_runs: ${count} }`);
      withPrune.push(await timedRun(project));
    }

    const pruneAlone: number[] = [];
    const store = openStore(defaultStorePath(project));
    try {
      for (let repetition = 1; repetition <= 5; repetition += 1) {
        started = performance.now();
        const outcome = pruneHistory(store, { suite: SUITE, retention: { keep_runs: count - repetition }, now: new Date(), maxRuns: 50 });
        pruneAlone.push(performance.now() - started);
        if (outcome.runs.length !== 1) throw new Error(`the bounded prune removed ${outcome.runs.length} runs, not 1`);
      }
    } finally {
      store.close();
    }

    setHistory(project, '{ keep_runs: 200 }');
    const full = await measureCommand({ argv: [process.execPath, PARLEY_BIN, 'runs', 'prune', '--format', 'json'], cwd: project, logFile: join(root, 'prune.json') });
    const outcome = JSON.parse(readFileSync(join(root, 'prune.json'), 'utf8')) as { runs: unknown[]; database: { bytes_before: number; bytes_after: number; compacted: boolean } };

    process.stdout.write(
      [
        `history of ${count.toLocaleString('en-US')} runs × ${SCENARIOS.length} results (examples/booking, replay of 8 scenarios):`,
        `  parley run, no prune (history: {}):             median ${median(withoutPrune).toFixed(2)} s  (${withoutPrune.map((value) => value.toFixed(2)).join(', ')})`,
        `  parley run, prune after it (keep_runs: ${count}): median ${median(withPrune).toFixed(2)} s  (${withPrune.map((value) => value.toFixed(2)).join(', ')})`,
        `  the prune after a run alone (1 run removed):   median ${median(pruneAlone).toFixed(0)} ms (${pruneAlone.map((value) => value.toFixed(0)).join(', ')})`,
        `  parley runs prune to the last 200 runs: ${outcome.runs.length} runs removed in ${full.wallSeconds.toFixed(1)} s; database ${mib(outcome.database.bytes_before)} → ${mib(outcome.database.bytes_after)}${outcome.database.compacted ? ' (compacted)' : ''}`,
        '',
      ].join('\n'),
    );
    return 0;
  } finally {
    if (values.keep) process.stderr.write(`bench:history: kept ${root}\n`);
    else rmSync(root, { recursive: true, force: true });
  }
}

process.exitCode = await main();
