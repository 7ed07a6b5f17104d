import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCodeMetric, type CodeMetricInput, type CodeMetricProgram } from './code-metric.js';
import { providerFailure } from './test-support/provider-failure.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-code-metric-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const input: CodeMetricInput = {
  metric: { name: 'booking_reference', version: '1.0.0' },
  scenario: { id: 'spa_booking', agent: 'booking' },
  transcript: {
    turns: [
      { role: 'user', content: 'Book me a massage', turn: 1 },
      { role: 'assistant', content: '', turn: 1, tool_calls: [{ name: 'create_booking', args: { time: '15:00' } }] },
      { role: 'tool', content: '{"booking_id":"BK-1057"}', turn: 1, tool_name: 'create_booking' },
      { role: 'assistant', content: 'Booked: BK-1057', turn: 1 },
    ],
    ended_by: 'script',
  },
  tool_calls: [{ name: 'create_booking', args: { time: '15:00' }, message_index: 1, result: '{"booking_id":"BK-1057"}' }],
  final_state: null,
  params: { prefix: 'BK-' },
};

/** Answers well within it; a stopped metric is stopped after it (short, so the timeout tests end soon). */
const TIMEOUT_MS = 30_000;
const SHORT_TIMEOUT_MS = 400;

function moduleMetric(file: string, source: string, timeoutMs = TIMEOUT_MS): CodeMetricProgram {
  writeFileSync(join(dir, file), source);
  return { kind: 'module', name: 'booking_reference', file: join(dir, file), timeoutMs, env: process.env };
}

function commandMetric(file: string, source: string, timeoutMs = TIMEOUT_MS): CodeMetricProgram {
  writeFileSync(join(dir, file), source);
  return { kind: 'command', name: 'booking_reference', command: [process.execPath, file], cwd: dir, timeoutMs, env: process.env };
}

/** A command metric's program: reads the whole stdin document, then runs `body` with it as `input`. */
const readingStdin = (body: string): string => `let text = ''; process.stdin.on('data', (c) => (text += c)); process.stdin.on('end', () => { const input = JSON.parse(text); ${body} });`;

describe('runCodeMetric: kind module (a worker thread)', () => {
  it("calls the default export's evaluate with the input and returns its answer, per-message results included", async () => {
    const program = moduleMetric(
      'reference.ts',
      `interface Input { transcript: { turns: Array<{ content: string }> }; tool_calls: Array<{ result?: string }>; params: { prefix: string } }
export default {
  evaluate(input: Input) {
    const reference = JSON.parse(input.tool_calls[0]?.result ?? '{}').booking_id as string;
    const last = input.transcript.turns.length - 1;
    const passed = input.transcript.turns[last]!.content.includes(reference) && reference.startsWith(input.params.prefix);
    return { score: passed ? 1 : 0, passed, reason: 'reference ' + reference, messages: [{ index: last, score: 1, reason: 'names ' + reference }] };
  },
};
`,
    );
    expect(await runCodeMetric(program, input)).toEqual({ score: 1, passed: true, reason: 'reference BK-1057', messages: [{ index: 3, score: 1, reason: 'names BK-1057' }] });
  });

  it('a throw is an error naming the metric, with the metric’s own message and stack', async () => {
    const program = moduleMetric('throws.mjs', `export default { evaluate() { throw new Error('no booking_id in the tool result'); } };`);
    const error = await providerFailure(runCodeMetric(program, input));
    expect(error.message).toBe('metric booking_reference: module throws.mjs threw: no booking_id in the tool result');
    expect(error.details).toMatch(/at evaluate \(file:\/\/.*throws\.mjs:1:\d+\)/);
    expect(error.details).not.toContain('data:text/javascript');
  });

  it('a crash (process.exit in the module) ends only its thread', async () => {
    const program = moduleMetric('exits.mjs', `export default { evaluate() { console.log('giving up'); process.exit(3); } };`);
    const error = await providerFailure(runCodeMetric(program, input));
    expect(error.message).toBe('metric booking_reference: module exits.mjs ended its thread (exit code 3)');
    expect(error.details).toContain('giving up');
  });

  it('an answer that is not { score, passed, reason } is an error saying what is wrong', async () => {
    const text = moduleMetric('text.mjs', `export default { evaluate() { return 'looks fine'; } };`);
    expect((await providerFailure(runCodeMetric(text, input))).message).toBe('metric booking_reference: module text.mjs answered a string, not { score, passed, reason }');
    const score = moduleMetric('score.mjs', `export default { evaluate() { return { score: 'high', passed: true, reason: 'ok' }; } };`);
    expect((await providerFailure(runCodeMetric(score, input))).message).toBe('metric booking_reference: module score.mjs answered score "high": it must be a number from 0 to 1');
    const index = moduleMetric('index.mjs', `export default { evaluate() { return { score: 1, passed: true, reason: 'ok', messages: [{ index: 9, score: 1, reason: 'x' }] }; } };`);
    expect((await providerFailure(runCodeMetric(index, input))).message).toBe(
      "metric booking_reference: module index.mjs answered messages[0].index 9: it must be a message's position in transcript.turns (0 to 3)",
    );
  });

  it('a module without evaluate is an error naming the metric', async () => {
    const program = moduleMetric('none.mjs', `export const check = () => 1;`);
    expect((await providerFailure(runCodeMetric(program, input))).message).toContain('metric booking_reference: module ' + join(dir, 'none.mjs') + ' exports no function "evaluate"');
  });

  it('a TypeScript module Node reads as CommonJS is an error naming the metric and the rename to .mts (a .ts one in a CommonJS package, any .cts one)', async () => {
    const project = join(dir, 'commonjs-project');
    mkdirSync(project);
    // What \`npm init -y\` writes: a team's own project is CommonJS unless it says otherwise.
    writeFileSync(join(project, 'package.json'), '{ "name": "team", "type": "commonjs" }\n');
    const source = `export default { evaluate(input: { params: Record<string, unknown> }) { return { score: 1, passed: true, reason: 'ok' }; } };\n`;
    for (const [file, why] of [
      ['reference.ts', 'its package.json makes .ts files CommonJS, so export is a syntax error'],
      ['reference.cts', 'a .cts file is CommonJS, where Node loads no import or export (nor export =)'],
    ] as const) {
      writeFileSync(join(project, file), source);
      const program: CodeMetricProgram = { kind: 'module', name: 'booking_reference', file: join(project, file), timeoutMs: TIMEOUT_MS, env: process.env };
      expect((await providerFailure(runCodeMetric(program, input))).message).toBe(
        `metric booking_reference: cannot load module ${file}: ${why}; rename it to reference.mts (always an ES module) and set module: to that name`,
      );
    }
    writeFileSync(join(project, 'export-assignment.cts'), `export = { evaluate() { return { score: 1, passed: true, reason: 'ok' }; } };\n`);
    const assigned: CodeMetricProgram = { kind: 'module', name: 'booking_reference', file: join(project, 'export-assignment.cts'), timeoutMs: TIMEOUT_MS, env: process.env };
    expect((await providerFailure(runCodeMetric(assigned, input))).message).toMatch(/^metric booking_reference: cannot load module export-assignment\.cts: a \.cts file is CommonJS/);
    writeFileSync(join(project, 'reference.mts'), source);
    const renamed: CodeMetricProgram = { kind: 'module', name: 'booking_reference', file: join(project, 'reference.mts'), timeoutMs: TIMEOUT_MS, env: process.env };
    expect(await runCodeMetric(renamed, input)).toEqual({ score: 1, passed: true, reason: 'ok' });
  });

  it('a module that cannot be loaded is an error whose reason starts with the metric', async () => {
    const program = moduleMetric('broken.mjs', `export default { evaluate( };`);
    expect((await providerFailure(runCodeMetric(program, input))).message).toMatch(new RegExp(`^metric booking_reference: cannot load module ${join(dir, 'broken.mjs').replaceAll(/[.\\/]/g, '\\$&')}: `));
  });

  it('a promise that never settles is stopped at the timeout', async () => {
    const program = moduleMetric('never.mjs', `export default { evaluate() { return new Promise(() => {}); } };`, SHORT_TIMEOUT_MS);
    expect((await providerFailure(runCodeMetric(program, input))).message).toBe(`metric booking_reference: module never.mjs did not reply within ${SHORT_TIMEOUT_MS} ms`);
  });

  it('a slow metric that never yields (a busy loop) has its thread stopped at the timeout', async () => {
    const program = moduleMetric('busy.mjs', `export default { evaluate() { for (;;) {} } };`, SHORT_TIMEOUT_MS);
    expect((await providerFailure(runCodeMetric(program, input))).message).toBe(`metric booking_reference: module busy.mjs did not reply within ${SHORT_TIMEOUT_MS} ms`);
  });
});

describe('runCodeMetric: kind command (a subprocess)', () => {
  it('gives the input as one JSON document on stdin and reads one JSON value (pretty-printed too) from stdout', async () => {
    const program = commandMetric(
      'echo.mjs',
      readingStdin(`const passed = input.transcript.turns.at(-1).content.includes(input.params.prefix);
        process.stdout.write(JSON.stringify({ score: 1, passed, reason: input.scenario.id + ' ' + input.tool_calls[0].result, messages: [{ index: 3, score: 1, reason: 'ok' }] }, null, 2));`),
    );
    expect(await runCodeMetric(program, input)).toEqual({ score: 1, passed: true, reason: 'spa_booking {"booking_id":"BK-1057"}', messages: [{ index: 3, score: 1, reason: 'ok' }] });
  });

  it('a throw (non-zero exit) is an error naming the metric, with what it printed', async () => {
    const program = commandMetric('throws.mjs', readingStdin(`throw new Error('no booking_id in ' + input.scenario.id);`));
    const error = await providerFailure(runCodeMetric(program, input));
    expect(error.message).toBe(`metric booking_reference: command "${process.execPath} throws.mjs" exited with code 1`);
    expect(error.details).toContain('Error: no booking_id in spa_booking');
  });

  it('a crash (killed by a signal) is an error naming the metric', async () => {
    const program = commandMetric('crash.mjs', readingStdin(`process.kill(process.pid, 'SIGKILL');`));
    expect((await providerFailure(runCodeMetric(program, input))).message).toBe(`metric booking_reference: command "${process.execPath} crash.mjs" was killed by SIGKILL`);
  });

  it('output that is not JSON, or JSON of the wrong shape, is an error quoting it', async () => {
    const prose = commandMetric('prose.mjs', readingStdin(`console.log('score: 1, passed');`));
    const error = await providerFailure(runCodeMetric(prose, input));
    expect(error.message).toMatch(/^metric booking_reference: command ".*prose\.mjs" printed something that is not one JSON value: score: 1, passed$/);
    const two = commandMetric('two.mjs', readingStdin(`console.log('{"score":1}'); console.log('{"score":0}');`));
    expect((await providerFailure(runCodeMetric(two, input))).message).toContain('printed something that is not one JSON value');
    const shape = commandMetric('shape.mjs', readingStdin(`console.log(JSON.stringify({ score: 1, passed: 'yes', reason: 'ok' }));`));
    expect((await providerFailure(runCodeMetric(shape, input))).message).toBe(
      `metric booking_reference: command "${process.execPath} shape.mjs" answered passed "yes": it must be true or false`,
    );
    const silent = commandMetric('silent.mjs', readingStdin(``));
    expect((await providerFailure(runCodeMetric(silent, input))).message).toContain('printed nothing on stdout');
  });

  it('a process that never answers is stopped at the timeout', async () => {
    const program = commandMetric('never.mjs', `setInterval(() => {}, 1000);`, SHORT_TIMEOUT_MS);
    expect((await providerFailure(runCodeMetric(program, input))).message).toBe(
      `metric booking_reference: command "${process.execPath} never.mjs" did not answer within ${SHORT_TIMEOUT_MS} ms`,
    );
  });

  it('a slow process that ignores SIGTERM is killed, and its late answer never counts', async () => {
    const program = commandMetric(
      'slow.mjs',
      `process.on('SIGTERM', () => {}); ${readingStdin(`const until = Date.now() + 60_000; while (Date.now() < until) {} console.log(JSON.stringify({ score: 1, passed: true, reason: 'late' }));`)}`,
      SHORT_TIMEOUT_MS,
    );
    const error = await providerFailure(runCodeMetric(program, input));
    expect(error.message).toBe(`metric booking_reference: command "${process.execPath} slow.mjs" did not answer within ${SHORT_TIMEOUT_MS} ms`);
  });

  it('stops the process when the run aborts', async () => {
    const program = commandMetric('waits.mjs', `setInterval(() => {}, 1000);`);
    const controller = new AbortController();
    const pending = runCodeMetric(program, input, controller.signal);
    controller.abort();
    expect((await providerFailure(pending)).kind).toBe('aborted');
  });
});
