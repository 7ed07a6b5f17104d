import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCodeMetric, type CodeMetricInput, type CodeMetricProgram } from './code-metric.js';
import { ModuleMetricThreads } from './module-metric-threads.js';
import { providerFailure } from './test-support/provider-failure.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-metric-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let threads = new ModuleMetricThreads();
afterEach(async () => {
  await threads.close();
  threads = new ModuleMetricThreads();
});

const input = (n: number): CodeMetricInput => ({
  metric: { name: 'counted', version: '1.0.0' },
  scenario: { id: `scenario_${n}`, agent: 'booking' },
  transcript: { turns: [{ role: 'assistant', content: `evaluation ${n}`, turn: 1 }], ended_by: 'script' },
  tool_calls: [],
  final_state: null,
  params: {},
});

function moduleMetric(file: string, source: string, timeoutMs = 30_000, name = 'counted'): CodeMetricProgram & { kind: 'module' } {
  writeFileSync(join(dir, file), source);
  return { kind: 'module', name, file: join(dir, file), timeoutMs, env: process.env };
}

/**
 * Answers with how many times its module was loaded (a count kept beside it in a file: a new
 * thread loads the module again) and how many evaluations this loaded copy has served.
 */
const COUNTING = (counter: string, body = '') => `
import { readFileSync, writeFileSync } from 'node:fs';
let loads = 0;
try { loads = Number(readFileSync(${JSON.stringify(counter)}, 'utf8')); } catch {}
loads += 1;
writeFileSync(${JSON.stringify(counter)}, String(loads));
let served = 0;
export default {
  async evaluate(input) {
    served += 1;
    ${body}
    return { score: 1, passed: true, reason: 'loads ' + loads + ', served ' + served + ', ' + input.transcript.turns[0].content };
  },
};
`;

const reasonOf = async (pending: Promise<{ reason: string }>) => (await pending).reason;

describe('ModuleMetricThreads: one worker thread per module metric per run', () => {
  it('starts the thread once for N evaluations, also when scenarios ask at once (they take turns)', async () => {
    const program = moduleMetric('counted.mjs', COUNTING(join(dir, 'counted.count')));
    const first = await Promise.all([1, 2, 3].map((n) => reasonOf(runCodeMetric(program, input(n), undefined, threads))));
    const then = await Promise.all([4, 5].map((n) => reasonOf(runCodeMetric(program, input(n), undefined, threads))));
    expect([...first, ...then]).toEqual([1, 2, 3, 4, 5].map((n) => `loads 1, served ${n}, evaluation ${n}`));
  });

  it('without the run’s threads each evaluation starts a thread of its own (as a direct caller gets)', async () => {
    const program = moduleMetric('alone.mjs', COUNTING(join(dir, 'alone.count')));
    expect(await reasonOf(runCodeMetric(program, input(1)))).toBe('loads 1, served 1, evaluation 1');
    expect(await reasonOf(runCodeMetric(program, input(2)))).toBe('loads 2, served 1, evaluation 2');
  });

  it('keeps one thread per metric: two metrics do not share one', async () => {
    const one = moduleMetric('one.mjs', COUNTING(join(dir, 'one.count')), 30_000, 'one');
    const two = moduleMetric('two.mjs', COUNTING(join(dir, 'two.count')), 30_000, 'two');
    expect(await reasonOf(runCodeMetric(one, input(1), undefined, threads))).toBe('loads 1, served 1, evaluation 1');
    expect(await reasonOf(runCodeMetric(two, input(2), undefined, threads))).toBe('loads 1, served 1, evaluation 2');
    expect(await reasonOf(runCodeMetric(one, input(3), undefined, threads))).toBe('loads 1, served 2, evaluation 3');
  });

  it('a crash in one evaluation is an error naming the metric; the next evaluation gets a new thread and passes', async () => {
    const program = moduleMetric('crashes.mjs', COUNTING(join(dir, 'crashes.count'), `if (input.transcript.turns[0].content === 'evaluation 2') process.exit(3);`));
    expect(await reasonOf(runCodeMetric(program, input(1), undefined, threads))).toBe('loads 1, served 1, evaluation 1');
    expect((await providerFailure(runCodeMetric(program, input(2), undefined, threads))).message).toBe('metric counted: module crashes.mjs ended its thread (exit code 3)');
    expect(await reasonOf(runCodeMetric(program, input(3), undefined, threads))).toBe('loads 2, served 1, evaluation 3');
    expect(await reasonOf(runCodeMetric(program, input(4), undefined, threads))).toBe('loads 2, served 2, evaluation 4');
  });

  it("a throw is that evaluation's error and keeps the thread (the module is fine)", async () => {
    const program = moduleMetric(
      'throws.mjs',
      COUNTING(join(dir, 'throws.count'), `if (input.transcript.turns[0].content === 'evaluation 2') throw new Error('no reference');`),
    );
    expect(await reasonOf(runCodeMetric(program, input(1), undefined, threads))).toBe('loads 1, served 1, evaluation 1');
    const error = await providerFailure(runCodeMetric(program, input(2), undefined, threads));
    expect(error.message).toBe('metric counted: module throws.mjs threw: no reference');
    expect(await reasonOf(runCodeMetric(program, input(3), undefined, threads))).toBe('loads 1, served 3, evaluation 3');
  });

  it('a timed-out evaluation is an error naming the metric; the stuck thread is replaced for the next', async () => {
    const program = moduleMetric('hangs.mjs', COUNTING(join(dir, 'hangs.count'), `if (input.transcript.turns[0].content === 'evaluation 2') for (;;) {}`), 400);
    expect(await reasonOf(runCodeMetric(program, input(1), undefined, threads))).toBe('loads 1, served 1, evaluation 1');
    expect((await providerFailure(runCodeMetric(program, input(2), undefined, threads))).message).toBe('metric counted: module hangs.mjs did not reply within 400 ms');
    expect(await reasonOf(runCodeMetric(program, input(3), undefined, threads))).toBe('loads 2, served 1, evaluation 3');
  });

  it('an abort (Ctrl-C) stops the evaluation in flight and those waiting their turn; close ends the threads and refuses more', async () => {
    const started = join(dir, 'waits.started');
    const program = moduleMetric(
      'waits.mjs',
      COUNTING(join(dir, 'waits.count'), `if (input.transcript.turns[0].content === 'evaluation 2') { writeFileSync(${JSON.stringify(started)}, 'yes'); await new Promise(() => {}); }`),
    );
    const controller = new AbortController();
    expect(await reasonOf(runCodeMetric(program, input(1), controller.signal, threads))).toBe('loads 1, served 1, evaluation 1');
    const inFlight = runCodeMetric(program, input(2), controller.signal, threads);
    const waiting = runCodeMetric(program, input(3), controller.signal, threads);
    await waitFor(() => existsSync(started));
    controller.abort();
    expect((await providerFailure(inFlight)).kind).toBe('aborted');
    expect((await providerFailure(waiting)).kind).toBe('aborted');
    await threads.close();
    const refused = await providerFailure(runCodeMetric(program, input(4), undefined, threads));
    expect(refused).toMatchObject({ kind: 'aborted', message: 'metric counted: the run has ended' });
  });
});

/** Waits on a condition (never on a clock): polls it once per turn of the event loop's timers. */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
