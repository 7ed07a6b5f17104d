/**
 * `npm run bench:tui -- [--runs-stored 10000] [--repeat 5] [--keep]`: how long `parley tui` takes to show
 * its first screen (the agent index, with the history read) when the store holds many runs.
 * The TUI runs in a real pseudo-terminal (`script`), 80×24; the clock stops at the first output
 * that shows an agent's row, then `q` quits it. Beside the wall time, the process's CPU time (user +
 * system, from the bench's resource-usage preload, until it has quit): on a shared machine it
 * moves much less than the wall time. `--keep` leaves the project folder (with its
 * stored runs) in place and prints its path, to profile or compare builds on.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { emptyCost, type ScenarioResult, type Status } from '@parley/core';
import { openStore } from '@parley/store';
import { USAGE_FILE_VARIABLE, usagePreloadPath, type ChildUsage } from './resource-usage-preload.js';

/** Issue 28's target for the first frame with 10,000 stored runs (it was 0.6 s before). */
const FIRST_FRAME_TARGET_SECONDS = 0.3;

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const PARLEY_BIN = join(REPO_ROOT, 'apps', 'cli', 'bin', 'parley.js');

/**
 * Thirteen of the municipal example's 25 scenarios with their agents (the example had thirteen when
 * the figures in tools/bench/README.md were measured): every stored run holds all thirteen.
 */
const SCENARIOS: ReadonlyArray<{ id: string; agent: string }> = [
  ...['auth_bypass_attempt_en', 'auth_otp_signin_en', 'auth_register_zu'].map((id) => ({ id, agent: 'auth' })),
  ...['gbv_case_extraction_af', 'gbv_immediate_danger_zu', 'gbv_support_en'].map((id) => ({ id, agent: 'gbv' })),
  ...['municipal_burst_pipe_zu', 'municipal_pothole_af', 'municipal_power_outage_en', 'municipal_prompt_injection_en'].map((id) => ({ id, agent: 'municipal' })),
  ...['ticket_status_af_raw_status', 'ticket_status_sql_injection_en', 'ticket_status_zu'].map((id) => ({ id, agent: 'ticket_status' })),
];

/** Fills `storePath` with `count` finished runs of the municipal suite, a few failing scenarios in each. */
function seedRunHistory(storePath: string, count: number): void {
  const store = openStore(storePath);
  try {
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let run = 0; run < count; run += 1) {
      const id = `bench-${String(run).padStart(6, '0')}`;
      const startedAt = new Date(start + run * 60_000).toISOString();
      store.createRun({ id, suite: 'thaba_connect', mode: 'replay', started_at: startedAt, parley_version: '0.1.0', options: {}, out_dir: join('.parley', 'runs', id) });
      const results: ScenarioResult[] = SCENARIOS.map((scenario, index) => {
        const status: Status = (run + index) % 7 === 0 ? 'fail' : 'pass';
        return {
          scenario_id: scenario.id,
          agent: scenario.agent,
          gate: 'blocking',
          tags: [],
          metadata_only: scenario.agent === 'gbv',
          status,
          reason: status === 'fail' ? 'content_signals: required "ticket" missing' : '',
          metrics: [{ metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: status === 'pass', reason: '' }],
          transcript: {
            turns: [
              { role: 'user', content: 'Sawubona, ngifuna ukubika umgodi emgwaqweni.', turn: 1 },
              { role: 'assistant', content: 'Ngiyabonga. Ngicela ungitshele ukuthi ukuphi umgodi?', turn: 1 },
            ],
            ended_by: 'script',
          },
          cost: emptyCost(),
        };
      });
      store.saveScenarioResults(id, results);
      const counts: Record<Status, number> = { pass: 0, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0 };
      for (const result of results) counts[result.status] += 1;
      store.finishRun(id, {
        status: counts.fail > 0 ? 'fail' : 'pass',
        exit_code: counts.fail > 0 ? 1 : 0,
        finished_at: new Date(start + run * 60_000 + 4_000).toISOString(),
        duration_ms: 4_000,
        cost: emptyCost(),
        counts,
      });
    }
  } finally {
    store.close();
  }
}

/**
 * Time from spawning `parley tui` in a pseudo-terminal to the first output that contains `marker`,
 * and the process's CPU seconds until it quit.
 */
function timeFirstFrame(cwd: string, marker: RegExp): Promise<{ seconds: number; cpuSeconds: number }> {
  return new Promise((resolvePromise, reject) => {
    const usageFile = join(cwd, '.parley-bench-usage.json');
    const command = `stty cols 80 rows 24; exec node --require ${usagePreloadPath()} ${PARLEY_BIN} tui`;
    const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color', [USAGE_FILE_VARIABLE]: usageFile };
    delete env.CI;
    const started = process.hrtime.bigint();
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env, stdio: ['pipe', 'pipe', 'inherit'] });
    let seen = '';
    let elapsed: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      if (elapsed !== undefined) return;
      seen += chunk.toString('utf8').replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '');
      if (marker.test(seen)) {
        elapsed = Number(process.hrtime.bigint() - started) / 1e9;
        child.stdin.write('q');
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (elapsed === undefined) reject(new Error(`parley tui exited (${code}) before showing ${marker}; it printed:\n${seen}`));
      else {
        const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as ChildUsage;
        rmSync(usageFile, { force: true });
        resolvePromise({ seconds: elapsed, cpuSeconds: (usage.userCpuMicros + usage.systemCpuMicros) / 1e6 });
      }
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function main(): Promise<number> {
  const argument = (name: string, fallback: number): number => {
    const index = process.argv.indexOf(name);
    const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
    return value;
  };
  const stored = argument('--runs-stored', 10_000);
  const repeat = argument('--repeat', 5);
  const keep = process.argv.includes('--keep');
  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-tui-'));
  try {
    cpSync(join(REPO_ROOT, 'examples', 'municipal'), folder, { recursive: true });
    process.stderr.write(`bench:tui: storing ${stored} runs…\n`);
    seedRunHistory(join(folder, '.parley', 'parley.db'), stored);
    const times: number[] = [];
    const cpuTimes: number[] = [];
    for (let attempt = 0; attempt < repeat; attempt += 1) {
      const { seconds, cpuSeconds } = await timeFirstFrame(folder, /ticket_status/);
      times.push(seconds);
      cpuTimes.push(cpuSeconds);
      process.stderr.write(`bench:tui: run ${attempt + 1}: ${seconds.toFixed(3)} s, cpu ${cpuSeconds.toFixed(3)} s\n`);
    }
    const result = median(times);
    const verdict = result <= FIRST_FRAME_TARGET_SECONDS ? 'within' : 'over';
    process.stdout.write(
      `${cpus().length} CPUs, Node ${process.versions.node}\n` +
        `first frame of \`parley tui\` with ${stored} stored runs: median ${result.toFixed(3)} s of ${repeat} ` +
        `(min ${Math.min(...times).toFixed(3)}, max ${Math.max(...times).toFixed(3)}); target ≤ ${FIRST_FRAME_TARGET_SECONDS} s: ${verdict}\n` +
        `process CPU time (first frame, then quit): median ${median(cpuTimes).toFixed(3)} s; load average ${loadavg()
          .map((load) => load.toFixed(2))
          .join(' ')}\n`,
    );
    return verdict === 'within' ? 0 : 1;
  } finally {
    if (keep) process.stderr.write(`bench:tui: kept ${folder}\n`);
    else rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  process.exitCode = await main();
}
