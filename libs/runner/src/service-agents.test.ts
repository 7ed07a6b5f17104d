import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { readRecording } from '@parley/providers';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/service-agents/', import.meta.url));
let seed = 100;
const deps = (cwd: string, env: NodeJS.ProcessEnv = {}): RunDependencies => ({
  cwd,
  env: { PATH: process.env.PATH, ...env },
  clock: manualClock(),
  random: seededRandom((seed += 1)),
});

describe('http, command and module agents end to end (examples/service-agents)', () => {
  let suiteDir: string;
  let httpAgent: ChildProcess;
  let httpUrl: string;

  beforeAll(async () => {
    suiteDir = mkdtempSync(join(tmpdir(), 'parley-service-agents-'));
    cpSync(EXAMPLE, suiteDir, { recursive: true });
    httpAgent = spawn(process.execPath, [join(suiteDir, 'agents/http-agent.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    httpUrl = await new Promise((resolve) =>
      createInterface({ input: httpAgent.stdout! }).on('line', (line) => {
        const match = /listening on (http:\S+)/.exec(line);
        if (match) resolve(match[1]!);
      }),
    );
  });

  afterAll(() => {
    httpAgent?.kill('SIGTERM');
  });

  it('records each agent kind live, then replays without calling any agent', async () => {
    const token = 'secret-TOKEN-for-the-http-agent';
    const recorded = await runSuite({ suitePath: suiteDir, mode: 'record', outDir: 'out/record' }, deps(suiteDir, { ECHO_HTTP_URL: httpUrl, ECHO_HTTP_TOKEN: token }));
    expect(recorded.report.results.map((result) => [result.scenario_id, result.status, result.error?.message])).toEqual([
      ['command_booking', 'pass', undefined],
      ['http_booking', 'pass', undefined],
      ['module_booking', 'pass', undefined],
    ]);
    const http = recorded.report.results.find((result) => result.scenario_id === 'http_booking')!;
    expect(http.transcript!.turns.map((turn) => [turn.role, turn.content, turn.state, turn.tool_calls?.map((call) => call.name)])).toEqual([
      ['user', "I'd like a massage on Saturday.", undefined, undefined],
      ['assistant', 'We have 10:00 and 14:00 free on Saturday. Which one would you like?', 'offering', ['check_availability']],
      ['user', '10:00 please.', undefined, undefined],
      ['assistant', 'Booked for Saturday at 10:00: your booking id is BK-77.', 'booked', ['create_booking']],
    ]);
    // Service replies are recorded as `service` calls of role agent, keyed without session ids.
    const entries = readRecording(join(suiteDir, 'recordings/command_booking.jsonl'));
    expect(entries.map((entry) => [entry.role, entry.provider, entry.model, entry.response.state])).toEqual([
      ['agent', 'service', 'receptionist_command', 'offering'],
      ['agent', 'service', 'receptionist_command', 'booked'],
    ]);
    expect(readFileSync(join(suiteDir, 'recordings/http_booking.jsonl'), 'utf8')).not.toContain(token);
    expect(recorded.report.cost).toMatchObject({ calls: 0, usd: 0 }); // the agents' own LLM spend is not Parley's

    // No http agent listening, no command or module to run: replay must not need them.
    httpAgent.kill('SIGTERM');
    renameSync(join(suiteDir, 'agents'), join(suiteDir, 'agents-gone'));
    try {
      const replayed = await runSuite({ suitePath: suiteDir, outDir: 'out/replay' }, deps(suiteDir));
      expect(replayed.report.mode).toBe('replay');
      expect(replayed.report.results.map((result) => [result.scenario_id, result.status, result.transcript])).toEqual(
        recorded.report.results.map((result) => [result.scenario_id, result.status, result.transcript]),
      );
    } finally {
      renameSync(join(suiteDir, 'agents-gone'), join(suiteDir, 'agents'));
    }
  });
});

/** Agents that fail in each way a service agent can (docs/reliability.md), and isolation hooks that log what they were given. */
const FAILING_SUITE: Record<string, string> = {
  'parley.yaml': `suite: failing_agents
agents:
  chatty: { kind: command, command: ["node", "chatty.mjs"], timeout_ms: 10000 }
  quitter: { kind: command, command: ["node", "quitter.mjs"], timeout_ms: 10000 }
  down: { kind: http, url: "http://127.0.0.1:1/chat", timeout_ms: 10000 }
  thrower: { kind: module, module: thrower.mjs }
  typed: { kind: module, module: typed-agent.ts }
  fine: { kind: module, module: fine.mjs }
isolation:
  setup: 'echo "setup $PARLEY_SCENARIO_ID $PARLEY_TENANT $PARLEY_RUN_ID" >> hooks.log; if [ "$PARLEY_SCENARIO_ID" = setup_fails ]; then echo "cannot create schema for $PARLEY_TENANT" >&2; exit 3; fi'
  teardown: 'echo "teardown $PARLEY_SCENARIO_ID $PARLEY_TENANT" >> hooks.log'
`,
  'chatty.mjs': `import { createInterface } from 'node:readline';
console.error('loading model weights... failed: out of memory');
for await (const line of createInterface({ input: process.stdin })) console.log('Hello there, ' + JSON.parse(line).message);
`,
  'quitter.mjs': `console.error('Traceback: KeyError: OPENAI_API_KEY'); process.exit(4);\n`,
  'thrower.mjs': `export function respond() { throw new Error('database is locked'); }\n`,
  'typed-agent.ts': `interface Body { message: string; turn: number }
export function respond(body: Body): { reply: string; state: string } {
  return { reply: \`typed reply to \${body.message}\`, state: \`turn-\${body.turn}\` };
}
`,
  'fine.mjs': `export default (body) => 'ok: ' + body.message;\n`,
  'scenarios/non_json.yaml': 'id: non_json\nagent: chatty\nuser: { opening: "Hi" }\n',
  'scenarios/exits_early.yaml': 'id: exits_early\nagent: quitter\nuser: { opening: "Hi" }\n',
  'scenarios/unreachable.yaml': 'id: unreachable\nagent: down\nuser: { opening: "Hi" }\n',
  'scenarios/throws.yaml': 'id: throws\nagent: thrower\nuser: { opening: "Hi" }\n',
  'scenarios/typescript.yaml': 'id: typescript\nagent: typed\nuser: { opening: "Hi", script: ["Again"] }\nexpect:\n  - { metric: state_path, expected: [turn-1, turn-2] }\n',
  'scenarios/setup_fails.yaml': 'id: setup_fails\nagent: fine\nuser: { opening: "Hi" }\n',
};

describe('service agents that fail, and isolation hooks', () => {
  it('turns each agent failure into an error result carrying what the agent printed, and runs teardown after every scenario', async () => {
    const dir = writeTempSuite(FAILING_SUITE);
    const outcome = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out', concurrency: 3 }, deps(dir));
    const byId = Object.fromEntries(outcome.report.results.map((result) => [result.scenario_id, result]));
    expect(byId.non_json!.status).toBe('error');
    expect(byId.non_json!.reason).toBe('agent command "node chatty.mjs" printed a line that is not JSON: Hello there, Hi');
    expect(byId.non_json!.error!.details).toContain('out of memory');
    expect(byId.exits_early!.reason).toBe('agent command "node quitter.mjs" exited with code 4 before replying');
    expect(byId.exits_early!.error!.details).toContain('KeyError: OPENAI_API_KEY');
    expect(byId.unreachable!.reason).toMatch(/^cannot reach agent at http:\/\/127\.0\.0\.1:1\/chat: /);
    expect(byId.throws!.reason).toBe('module agent thrower.mjs threw: database is locked');
    expect(byId.typescript!.status).toBe('pass');
    expect(byId.typescript!.transcript!.turns[1]!.content).toBe('typed reply to Hi');

    const setupFailed = byId.setup_fails!;
    expect(setupFailed.status).toBe('error');
    expect(setupFailed.error!.kind).toBe('isolation');
    expect(setupFailed.reason).toMatch(/^isolation setup ".*" exited with code 3$/);
    expect(setupFailed.error!.details).toMatch(/cannot create schema for test_tenant_setup_fails_[0-9a-f]{8}/);

    // Every scenario got its own tenant, and teardown ran for each of them, failures included.
    const log = readFileSync(join(dir, 'hooks.log'), 'utf8').trim().split('\n');
    const setups = log.filter((line) => line.startsWith('setup '));
    const teardowns = log.filter((line) => line.startsWith('teardown '));
    expect(setups).toHaveLength(6);
    expect(new Set(setups.map((line) => line.split(' ')[2])).size).toBe(6);
    expect(setups.every((line) => line.endsWith(` ${outcome.run_id}`))).toBe(true);
    expect(teardowns.map((line) => line.split(' ').slice(1, 3).join(' ')).sort()).toEqual(setups.map((line) => line.split(' ').slice(1, 3).join(' ')).sort());
  });
});

describe('limits and configuration of a scenario', () => {
  it('ends a scenario whose agent never answers at settings.scenario_timeout_ms, with teardown, and names a missing simulator', async () => {
    const dir = writeTempSuite({
      'parley.yaml': `suite: limits
agents:
  silent: { kind: module, module: silent.mjs }
settings: { scenario_timeout_ms: 100 }
isolation:
  teardown: 'echo "teardown $PARLEY_SCENARIO_ID" >> hooks.log'
`,
      'silent.mjs': 'export function respond() { return new Promise(() => {}); }\n',
      'scenarios/hangs.yaml': 'id: hangs\nagent: silent\nuser: { opening: "Hi" }\n',
      'scenarios/needs_simulator.yaml': 'id: needs_simulator\nagent: silent\nuser: { simulate: { persona: p, goal: g } }\n',
    });
    const outcome = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out' }, deps(dir));
    const [hangs, needsSimulator] = outcome.report.results;
    expect([hangs!.status, hangs!.error?.kind, hangs!.reason]).toEqual(['error', 'timeout', 'scenario timed out after 100 ms (settings.scenario_timeout_ms)']);
    expect(needsSimulator!.reason).toContain('has user.simulate but parley.yaml has no simulator:');
    // The missing simulator is found before any hook runs: nothing was set up, so nothing is torn down.
    expect(readFileSync(join(dir, 'hooks.log'), 'utf8').trim().split('\n')).toEqual(['teardown hangs']);
  });
});
