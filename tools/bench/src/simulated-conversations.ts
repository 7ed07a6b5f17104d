#!/usr/bin/env node
/**
 * Benchmark: N simulated conversations × T user turns against tools/fake-llm with a fixed latency
 * per call, run by the real `parley` binary in live mode at a given concurrency. Each turn costs
 * two calls on the conversation's critical path (the simulator writes the user message, then the
 * agent answers), and a conversation's calls run one after another, so the ideal wall time is
 * ⌈N ÷ concurrency⌉ × T × 2 × latency: the conversations run in waves of `concurrency`, each as
 * long as one conversation (200 conversations at 16 take 13 waves, not 12.5: the last wave's 8
 * cannot be shared out over the idle slots). Parley passes when
 * the measured wall time of the whole process (start-up included) is within `--max-ratio` of that
 * bound.
 *
 * Wall time depends on how busy the machine is; CPU time per call does not (much): it is Parley's
 * own work per model call (building the request, the SDK and HTTP, masking, the event log, saves),
 * start-up included, and is printed beside the ratio with the load average.
 *
 *   npm run build && node tools/bench/dist/simulated-conversations.js [--conversations 200]
 *     [--turns 5] [--latency-ms 100] [--concurrency 16] [--max-ratio 1.10] [--runs 1]
 *     [--bin apps/cli/bin/parley.js]... [--cpu-prof DIR]
 *
 * `--bin` may be given more than once (another build's bin, e.g. a copy of apps/cli/{bin,dist,
 * package.json} beside a node_modules link): the bins' runs are interleaved, one of each in turn.
 * `--cpu-prof DIR` runs Parley with `node --cpu-prof` and leaves the profiles in DIR.
 *
 * The fake LLM runs in its own process, as a real provider would, so both cores are used the way
 * they would be against a remote API.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureCommand } from './measure-command.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PARLEY_BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const FAKE_LLM_BIN = join(REPO_ROOT, 'tools/fake-llm/dist/cli.js');

interface Settings {
  conversations: number;
  turns: number;
  latencyMs: number;
  concurrency: number;
  maxRatio: number;
  runs: number;
  bins: string[];
  cpuProfileDir: string | undefined;
}

function readSettings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      conversations: { type: 'string', default: '200' },
      turns: { type: 'string', default: '5' },
      'latency-ms': { type: 'string', default: '100' },
      concurrency: { type: 'string', default: '16' },
      'max-ratio': { type: 'string', default: '1.10' },
      runs: { type: 'string', default: '1' },
      bin: { type: 'string', multiple: true },
      'cpu-prof': { type: 'string' },
    },
  });
  const number = (name: string, text: string | undefined): number => {
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got "${text}"`);
    return value;
  };
  return {
    conversations: number('conversations', values.conversations),
    turns: number('turns', values.turns),
    latencyMs: number('latency-ms', values['latency-ms']),
    concurrency: number('concurrency', values.concurrency),
    maxRatio: number('max-ratio', values['max-ratio']),
    runs: number('runs', values.runs),
    bins: (values.bin ?? [PARLEY_BIN]).map((bin) => resolve(bin)),
    cpuProfileDir: values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']),
  };
}

/** A suite of N scenarios, each played by the simulator for exactly T turns (it never ends early). */
function writeSuite(directory: string, settings: Settings): void {
  mkdirSync(join(directory, 'scenarios'), { recursive: true });
  writeFileSync(
    join(directory, 'parley.yaml'),
    [
      'suite: bench_simulated',
      'agents:',
      '  agent: { kind: openai, model: bench-agent, temperature: 0 }',
      'simulator: { provider: openai, model: bench-sim, temperature: 0 }',
      'pricing: { bench-agent: { input: 0.4, output: 1.6 }, bench-sim: { input: 0.4, output: 1.6 } }',
      '',
    ].join('\n'),
  );
  for (let index = 0; index < settings.conversations; index += 1) {
    const id = `conversation_${String(index).padStart(4, '0')}`;
    writeFileSync(
      join(directory, 'scenarios', `${id}.yaml`),
      `id: ${id}\nagent: agent\nlanguage: en\nuser:\n  simulate:\n    persona: customer number ${index}\n    goal: book a massage\n    max_turns: ${settings.turns}\nexpect:\n  - { metric: max_turns, max: ${settings.turns} }\n`,
    );
  }
  writeFileSync(
    join(directory, 'fake-llm.json'),
    JSON.stringify({
      defaults: { latency_ms: settings.latencyMs },
      rules: [
        { when: { model: 'bench-sim' }, reply: { content: 'I would like a massage on Saturday, please.', usage: { input_tokens: 120, output_tokens: 12 } } },
        { when: { model: 'bench-agent' }, reply: { content: 'Certainly: we have 10:00 and 14:00 free. Which one?', usage: { input_tokens: 150, output_tokens: 15 } } },
      ],
    }),
  );
}

function startFakeLlm(scriptFile: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [FAKE_LLM_BIN, '--script', scriptFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fake-llm exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /listening on (http:\S+)/.exec(line);
      if (match) resolve({ url: match[1]!, stop: () => child.kill('SIGTERM') });
    });
  });
}

interface LiveRun {
  bin: string;
  ok: boolean;
  wallSeconds: number;
  cpuSeconds: number | undefined;
  peakRssKiB: number | undefined;
  calls: number;
  durationMs: number;
  statuses: string;
  load: number;
  failure: string | undefined;
}

/** One live run of the suite by `bin`, measured (wall, CPU, peak RSS); its run folder is removed after. */
async function runOnce(bin: string, directory: string, fakeUrl: string, settings: Settings, index: number): Promise<LiveRun> {
  const out = join(directory, `out-${index}`);
  // Each run starts from no history (another build may know another schema; a longer history costs its prune more).
  rmSync(join(directory, '.parley'), { recursive: true, force: true });
  const log = join(directory, `parley-${index}.log`);
  const profile = settings.cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', settings.cpuProfileDir];
  const measured = await measureCommand({
    argv: [process.execPath, ...profile, bin, 'run', directory, '--mode', 'live', '--concurrency', String(settings.concurrency), '--out', out],
    cwd: directory,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', OPENAI_API_KEY: 'sk-bench-not-a-key', OPENAI_BASE_URL: `${fakeUrl}/v1` },
    logFile: log,
  });
  const load = loadavg()[0]!;
  const expectedCalls = settings.conversations * settings.turns * 2;
  try {
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { duration_ms: number; counts: Record<string, number>; cost: { calls: number } };
    const ok = measured.exitCode === 0 && report.cost.calls === expectedCalls;
    return {
      bin,
      ok,
      wallSeconds: measured.wallSeconds,
      cpuSeconds: measured.cpuSeconds,
      peakRssKiB: measured.peakRssKiB,
      calls: report.cost.calls,
      durationMs: report.duration_ms,
      statuses: Object.entries(report.counts).filter(([, count]) => count > 0).map(([status, count]) => `${count} ${status}`).join(', '),
      load,
      failure: ok ? undefined : `parley exited ${measured.exitCode} with ${report.cost.calls} of ${expectedCalls} calls: ${readFileSync(log, 'utf8').slice(-500)}`,
    };
  } catch (error) {
    return { bin, ok: false, wallSeconds: measured.wallSeconds, cpuSeconds: undefined, peakRssKiB: undefined, calls: 0, durationMs: 0, statuses: '', load, failure: `${(error as Error).message}: ${readFileSync(log, 'utf8').slice(-500)}` };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const settings = readSettings(process.argv.slice(2));
  const directory = mkdtempSync(join(tmpdir(), 'parley-bench-simulated-'));
  writeSuite(directory, settings);
  if (settings.cpuProfileDir !== undefined) mkdirSync(settings.cpuProfileDir, { recursive: true });
  const fake = await startFakeLlm(join(directory, 'fake-llm.json'));
  try {
    const callsPerConversation = settings.turns * 2;
    const expectedCalls = settings.conversations * callsPerConversation;
    const idealSeconds = (Math.ceil(settings.conversations / settings.concurrency) * callsPerConversation * settings.latencyMs) / 1000;
    console.log(`${settings.conversations} conversations × ${settings.turns} turns = ${expectedCalls} calls (simulator + agent), ${settings.latencyMs} ms each, concurrency ${settings.concurrency}: ideal ${idealSeconds.toFixed(2)} s`);
    const runs: LiveRun[] = [];
    let index = 0;
    for (let round = 0; round < settings.runs; round += 1) {
      for (const bin of settings.bins) {
        const run = await runOnce(bin, directory, fake.url, settings, (index += 1));
        runs.push(run);
        const cpu = run.cpuSeconds === undefined ? 'cpu ?' : `cpu ${run.cpuSeconds.toFixed(2)} s = ${((run.cpuSeconds * 1000) / expectedCalls).toFixed(3)} ms per call`;
        const rss = run.peakRssKiB === undefined ? '' : `, peak RSS ${Math.round(run.peakRssKiB / 1024)} MiB`;
        console.log(
          `#${settings.bins.indexOf(bin) + 1} wall ${run.wallSeconds.toFixed(2)} s (run ${(run.durationMs / 1000).toFixed(2)} s) = ${(run.wallSeconds / idealSeconds).toFixed(3)}× ideal, ${cpu}${rss}, load ${run.load.toFixed(1)}, ${run.statuses}${run.failure ? ` FAILED: ${run.failure}` : ''}`,
        );
      }
    }
    settings.bins.forEach((bin, position) => console.log(`#${position + 1} = ${bin}`));
    const best = Math.min(...runs.filter((run) => run.ok).map((run) => run.wallSeconds / idealSeconds));
    const ok = runs.every((run) => run.ok) && best <= settings.maxRatio;
    console.log(ok ? `PASS (best ratio ${best.toFixed(3)} ≤ ${settings.maxRatio})` : `FAIL (best ratio ${best.toFixed(3)}, limit ${settings.maxRatio}${runs.some((run) => !run.ok) ? '; a run failed' : ''})`);
    return ok ? 0 : 1;
  } finally {
    fake.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

process.exitCode = await main();
