#!/usr/bin/env node
/**
 * Benchmark: N simulated conversations × T user turns against tools/fake-llm with a fixed latency
 * per call, run by the real `parley` binary in live mode at a given concurrency. Each turn costs
 * two calls on the conversation's critical path (the simulator writes the user message, then the
 * agent answers), so the ideal wall time is N × T × 2 × latency ÷ concurrency. Parley passes when
 * the measured wall time of the whole process (start-up included) is within 1.15× of that bound.
 *
 *   npm run build && node tools/bench/dist/simulated-conversations.js [--conversations 200]
 *     [--turns 5] [--latency-ms 100] [--concurrency 16] [--max-ratio 1.15]
 *
 * The fake LLM runs in its own process, as a real provider would, so both cores are used the way
 * they would be against a remote API.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PARLEY_BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const FAKE_LLM_BIN = join(REPO_ROOT, 'tools/fake-llm/dist/cli.js');

interface Settings {
  conversations: number;
  turns: number;
  latencyMs: number;
  concurrency: number;
  maxRatio: number;
}

function readSettings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      conversations: { type: 'string', default: '200' },
      turns: { type: 'string', default: '5' },
      'latency-ms': { type: 'string', default: '100' },
      concurrency: { type: 'string', default: '16' },
      'max-ratio': { type: 'string', default: '1.15' },
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

function runParley(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ status: number | null; wallMs: number; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [PARLEY_BIN, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, wallMs: performance.now() - started, stderr })));
}

async function main(): Promise<number> {
  const settings = readSettings(process.argv.slice(2));
  const directory = mkdtempSync(join(tmpdir(), 'parley-bench-simulated-'));
  writeSuite(directory, settings);
  const fake = await startFakeLlm(join(directory, 'fake-llm.json'));
  try {
    const run = await runParley(
      ['run', directory, '--mode', 'live', '--concurrency', String(settings.concurrency), '--out', join(directory, 'out')],
      { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', OPENAI_API_KEY: 'sk-bench-not-a-key', OPENAI_BASE_URL: `${fake.url}/v1` },
      directory,
    );
    const report = JSON.parse(readFileSync(join(directory, 'out', 'report.json'), 'utf8')) as {
      duration_ms: number;
      counts: Record<string, number>;
      cost: { calls: number };
    };
    const callsPerConversation = settings.turns * 2;
    const expectedCalls = settings.conversations * callsPerConversation;
    const idealMs = (settings.conversations * callsPerConversation * settings.latencyMs) / settings.concurrency;
    const ratio = run.wallMs / idealMs;
    const rows = [
      ['conversations × turns', `${settings.conversations} × ${settings.turns}`],
      ['calls (simulator + agent)', `${report.cost.calls} (expected ${expectedCalls})`],
      ['latency per call, concurrency', `${settings.latencyMs} ms, ${settings.concurrency}`],
      ['ideal bound', `${(idealMs / 1000).toFixed(2)} s`],
      ['measured wall (process)', `${(run.wallMs / 1000).toFixed(2)} s`],
      ['run duration (report)', `${(report.duration_ms / 1000).toFixed(2)} s`],
      ['ratio to ideal', `${ratio.toFixed(3)} (limit ${settings.maxRatio})`],
      ['statuses', Object.entries(report.counts).filter(([, count]) => count > 0).map(([status, count]) => `${count} ${status}`).join(', ')],
    ];
    const width = Math.max(...rows.map(([label]) => label!.length));
    for (const [label, value] of rows) console.log(`${label!.padEnd(width)}  ${value}`);
    const ok = run.status === 0 && report.cost.calls === expectedCalls && ratio <= settings.maxRatio;
    console.log(ok ? 'PASS' : `FAIL${run.status !== 0 ? ` (parley exited ${run.status}: ${run.stderr.slice(-500)})` : ''}`);
    return ok ? 0 : 1;
  } finally {
    fake.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

process.exitCode = await main();
