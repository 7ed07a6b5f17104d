import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom, type RunEvent } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { openModelSpend, openStore } from '@parley/store';
import { inShard } from '@parley/gate';
import { budgetLimit, shardBudget } from './budget.js';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

const FAKE_KEYS = { OPENAI_API_KEY: 'sk-test-LIVERUN-openai-0123', ANTHROPIC_API_KEY: 'sk-ant-test-LIVERUN-0123' };
let server: FakeLlmServer;
let seed = 500;
/** Deadlines of calls in flight: fired the moment a call the fake server will hang arrives. */
const deadlines = new Set<() => void>();

function deps(cwd: string, events: RunEvent[] = []): RunDependencies {
  return {
    cwd,
    env: { ...FAKE_KEYS, OPENAI_BASE_URL: server.openaiBaseUrl, ANTHROPIC_BASE_URL: server.anthropicBaseUrl },
    clock: manualClock(),
    random: seededRandom((seed += 1)),
    listeners: [(event) => events.push(event)],
    // Backoffs are recorded, never waited; a hanging call's deadline fires when the server holds it
    // (suites that hang a call run one scenario at a time, so the only deadline pending is its own).
    resilience: {
      sleep: async () => {},
      random: () => 0.5,
      schedule: (_milliseconds, fire) => {
        deadlines.add(fire);
        return () => deadlines.delete(fire);
      },
    },
  };
}

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        // The simulator (Anthropic) plays Amina in Swahili.
        { when: { api: 'anthropic', last_user: '/BK-1042/' }, reply: { tool_calls: [{ name: 'end_conversation', args: { reason: 'goal_reached', explanation: 'Nimepata nafasi.' } }] } },
        { when: { api: 'anthropic', last_user: '/Ungependa/' }, reply: { content: 'Ndiyo, saa 10:00 tafadhali.', usage: { input_tokens: 200, output_tokens: 9 } } },
        { when: { api: 'anthropic', system: '/role-playing/' }, reply: { content: 'Habari! Nataka massage Jumamosi.', usage: { input_tokens: 150, output_tokens: 8 } } },
        // The agent under test (OpenAI).
        { when: { api: 'openai', model: 'always-500' }, fault: { kind: 'status', status: 500, message: 'upstream exploded' } },
        { when: { api: 'openai', model: 'always-429' }, fault: { kind: 'status', status: 429, retry_after: 7, message: 'slow down' } },
        { when: { api: 'openai', model: 'always-hang' }, fault: { kind: 'hang' } },
        { when: { api: 'openai', model: 'always-malformed' }, fault: { kind: 'malformed' } },
        { when: { api: 'openai', model: 'always-reset' }, fault: { kind: 'reset' } },
        { when: { api: 'openai', model: 'pricey' }, reply: { content: 'Done.', usage: { input_tokens: 10, output_tokens: 1000 } } },
        { when: { api: 'openai', last_message_role: 'user', last_user: '/massage/' }, reply: { tool_calls: [{ name: 'check_availability', args: { day: 'saturday' } }] } },
        { when: { api: 'openai', last_tool: 'check_availability' }, reply: { content: 'Tuna nafasi saa 10:00. Ungependa?' } },
        { when: { api: 'openai', last_user: '/saa 10:00/' }, reply: { content: 'Nimekuwekea saa 10:00 Jumamosi. Nambari ya miadi: BK-1042.' } },
      ],
    },
    onRequest(entry) {
      if (entry.model === 'always-hang') setImmediate(() => [...deadlines].forEach((fire) => fire()));
    },
  });
});

afterAll(async () => {
  await server?.close();
});

const SIMULATED: Record<string, string> = {
  'parley.yaml': `suite: simulated
agents:
  booking: { kind: openai, model: gpt-4.1-mini, temperature: 0, tools: tools.json, system_prompt: prompt.md }
simulator: { provider: anthropic, model: claude-haiku-4-5, temperature: 0.7 }
`,
  'prompt.md': 'You book massages. Answer in the customer\'s language.\n',
  'tools.json': JSON.stringify([{ name: 'check_availability', parameters: { type: 'object', properties: { day: { type: 'string' } } } }]),
  'scenarios/amina.yaml': `id: amina
agent: booking
language: sw
user:
  simulate:
    persona: Amina, 34, regular customer, prefers Swahili
    goal: a confirmed massage on Saturday morning with a booking number
    max_turns: 5
tools:
  check_availability: { returns: { slots: ["10:00"] } }
expect:
  - { metric: content_signals, required: ["BK-1042"] }
  - { metric: tool_correctness, expected: [check_availability] }
`,
};

describe('a simulated conversation through the real SDKs', () => {
  it('records live (OpenAI agent, Anthropic simulator) and replays offline to the same transcript and report', async () => {
    const dir = writeTempSuite(SIMULATED);
    const recorded = await runSuite({ suitePath: dir, mode: 'record', outDir: 'out/record' }, deps(dir));
    const result = recorded.report.results[0]!;
    expect(result.status).toBe('pass');
    const transcript = result.transcript!;
    expect(transcript.ended_by).toBe('goal_reached');
    expect(transcript.end_explanation).toBe('Nimepata nafasi.');
    expect(transcript.turns.filter((turn) => turn.role === 'user').map((turn) => [turn.content, turn.simulated])).toEqual([
      ['Habari! Nataka massage Jumamosi.', true],
      ['Ndiyo, saa 10:00 tafadhali.', true],
    ]);
    // Simulator calls are priced (claude-haiku-4-5: $1/$5 per million) and counted with the agent's.
    expect(transcript.turns[0]!.cost_usd).toBeCloseTo((150 * 1 + 8 * 5) / 1e6, 12);
    const roles = readFileSync(join(dir, 'recordings/amina.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).role);
    expect(roles).toEqual(['simulator', 'agent', 'agent', 'simulator', 'agent', 'simulator']);
    expect(recorded.report.cost.calls).toBe(6);

    const callsBefore = server.requests.length;
    const replayed = await runSuite({ suitePath: dir, outDir: 'out/replay' }, { ...deps(dir), env: {} });
    expect(server.requests.length).toBe(callsBefore);
    expect(replayed.report.results[0]!.transcript).toEqual(transcript);
    const normalise = (text: string) =>
      text
        .replace(/"run_id": "[^"]+"/, '')
        .replace(/"(started_at|finished_at)": "[^"]+"/g, '')
        .replace(/"duration_ms": \d+/, '')
        .replace(/"mode": "\w+"/, '');
    // A live call names the server it reached (for the export's server.* attributes); a replay reached none.
    const serverOf = /,\s*"server_address": "[^"]*",\s*"server_port": \d+/g;
    const recordedText = readFileSync(join(dir, 'out/record', 'report.json'), 'utf8');
    const replayedText = readFileSync(join(dir, 'out/replay', 'report.json'), 'utf8');
    expect(recordedText.match(serverOf)).toHaveLength(6);
    expect(replayedText).not.toContain('"server_address"');
    expect(normalise(replayedText)).toBe(normalise(recordedText.replace(serverOf, '')));
  });
});

/** Four one-call scenarios a–d of a prompt agent whose every call answers its whole max_tokens (1,000). */
function pricedSuite(pricing: string): Record<string, string> {
  const scenarios = Object.fromEntries(['a', 'b', 'c', 'd'].map((id) => [`scenarios/${id}.yaml`, `id: ${id}\nagent: ok\nuser: { opening: "Hi" }\n`]));
  return {
    'parley.yaml': `suite: priced\nagents:\n  ok: { kind: openai, model: pricey, max_tokens: 1000 }\nsettings: { concurrency: 1 }\n${pricing}\n`,
    ...scenarios,
  };
}

describe('a live run that meets faults, budgets and Ctrl-C', () => {
  it('gives up on each kind of lasting provider fault with a clear error while the rest of the run completes', async () => {
    const faults = ['429', '500', 'hang', 'malformed', 'reset'];
    const dir = writeTempSuite({
      'parley.yaml': `suite: faults
agents:
  ok: { kind: openai, model: pricey }
${faults.map((fault) => `  broken_${fault}: { kind: openai, model: always-${fault} }`).join('\n')}
settings: { concurrency: 1, timeout_ms: 30000, retries: { max: 2 } }
pricing: { pricey: { input: 0.0001, output: 0 } }
`,
      'scenarios/works.yaml': 'id: works\nagent: ok\nuser: { opening: "Hi" }\n',
      ...Object.fromEntries(faults.map((fault) => [`scenarios/fault_${fault}.yaml`, `id: fault_${fault}\nagent: broken_${fault}\nuser: { opening: "Hi" }\n`])),
    });
    const outcome = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out' }, deps(dir));
    const byId = Object.fromEntries(outcome.report.results.map((result) => [result.scenario_id, result]));
    expect(byId.works!.status).toBe('pass');
    const expected: Record<string, [string, RegExp]> = {
      '429': ['rate_limited', /^openai answered HTTP 429: .*slow down/],
      '500': ['http', /^openai answered HTTP 500: .*upstream exploded/],
      hang: ['timeout', /^openai call timed out after 30000 ms \(model always-hang\)/],
      malformed: ['malformed_response', /^openai answered with a body that is not valid JSON/],
      reset: ['connection', /^openai connection failed/],
    };
    for (const fault of faults) {
      const result = byId[`fault_${fault}`]!;
      const [kind, reason] = expected[fault]!;
      expect([fault, result.status, result.error?.kind]).toEqual([fault, 'error', kind]);
      expect(result.reason).toMatch(reason);
      expect(result.reason).toMatch(/\(gave up after 3 attempts\)$/);
    }
    expect(server.requests.filter((request) => request.model === 'always-reset')).toHaveLength(3);
    expect(outcome.exit_code).toBe(1);
  });

  it('never spends more than the budget: a scenario whose estimate does not fit is not started (blocking ones are warn), and the report says which and why', async () => {
    const dir = writeTempSuite(pricedSuite('pricing: { pricey: { input: 0, output: 400 } }')); // $0.40 a call
    const run = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out', budgetUsd: 0.5 }, deps(dir));
    // a spends $0.40; b's estimate (the costliest scenario so far, $0.40) does not fit in the $0.10 left.
    // Before reservations b started too and the run spent $0.80 of $0.50.
    expect(run.report.results.map((result) => [result.scenario_id, result.status])).toEqual([
      ['a', 'pass'],
      ['b', 'warn'],
      ['c', 'warn'],
      ['d', 'warn'],
    ]);
    expect(run.report.results[1]!.reason).toBe(
      "not checked: budget reached ($0.4000 spent of $0.5000; with $0.0000 held by scenarios in flight, this scenario's estimate of $0.4000 (the costliest so far) does not fit) before this scenario started; a blocking scenario that did not run did not pass",
    );
    expect(run.report.budget).toEqual({
      limit_usd: 0.5,
      exhausted: true,
      downgrades: [
        '3 scenarios skipped (not started once the budget was reached): b, c, d',
        '3 blocking scenarios unchecked: each is warn, which fails the run under --strict',
      ],
      unchecked_blocking: 3,
      spent_usd: expect.closeTo(0.4, 10),
      rerun: 'parley run . --mode live --budget 0.5 --scenario b --scenario c --scenario d',
      estimate: { scenarios: 1, estimated_usd: 0, actual_usd: expect.closeTo(0.4, 10) },
    });
    expect(run.report.cost_usd).toBeCloseTo(0.4, 10);
    expect(run.report.status).toBe('warn');
    expect(run.exit_code).toBe(0);
    const summary = readFileSync(join(dir, 'out/summary.md'), 'utf8');
    expect(summary).toContain('Budget $0.5000, exhausted: 3 scenarios skipped');
    expect(summary).toContain('Spent $0.4000 of it; the 1 scenarios started reserved $0.0000 as estimates and spent $0.4000');
    expect(summary).toContain('## Parley: WARN — 3 of 4 blocking scenarios with warnings, 3 blocking scenarios unchecked (budget reached)');
  });

  it('does not send a call whose worst case does not fit: the scenario is cut short, not the budget', async () => {
    // Two scenarios at once, each first of its kind (estimate $0): the second call's worst case ($0.40) does not fit in $0.50.
    const files = pricedSuite('pricing: { pricey: { input: 0, output: 400 } }');
    const dir = writeTempSuite({ ...files, 'parley.yaml': files['parley.yaml']!.replace('concurrency: 1', 'concurrency: 2') });
    const run = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out', budgetUsd: 0.5 }, deps(dir));
    expect(run.report.results.map((result) => result.status)).toEqual(['pass', 'warn', 'warn', 'warn']);
    expect(run.report.results[1]!.reason).toMatch(/^not checked: budget reached during this scenario: a call's worst case of \$0\.4000 \(agent pricey\) did not fit \(\$0\.0000 spent and \$0\.4000 held of \$0\.5000\)/);
    // c and d start while a is in flight (no scenario has finished, so their estimate is $0) and are cut short the same way.
    expect(run.report.budget?.downgrades[0]).toBe("3 scenarios cut short (the next call's worst case did not fit the budget): b, c, d");
    expect(run.report.budget?.spent_usd).toBeCloseTo(0.4, 10);
  });

  it('a blocking scenario the budget stopped did not pass: --strict fails the run, even when nothing ran (--budget 0)', async () => {
    const dir = writeTempSuite(pricedSuite('pricing: { pricey: { input: 0, output: 400 } }'));
    const callsBefore = server.requests.length;
    const strict = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out-strict', budgetUsd: 0, strict: true }, deps(dir));
    expect(strict.report.results.map((result) => result.status)).toEqual(['warn', 'warn', 'warn', 'warn']);
    expect(strict.report.budget?.unchecked_blocking).toBe(4);
    expect(strict.exit_code).toBe(1);
    expect(server.requests.length).toBe(callsBefore); // nothing was run
  });

  it('says so when calls to an unpriced model cannot be counted against the budget (never silently 0)', async () => {
    const dir = writeTempSuite(pricedSuite(''));
    const run = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out', budgetUsd: 0.5 }, deps(dir));
    expect(run.report.results.every((result) => result.status === 'pass')).toBe(true);
    expect(run.report.cost_usd).toBeNull();
    expect(run.report.budget?.downgrades).toEqual([
      '4 calls to models without a known price not counted against the budget (add them under pricing:)',
    ]);
  });

  it('under --shard I/N holds each shard to budget / N of the PR budget, unless --budget-per-shard', async () => {
    const dir = writeTempSuite(pricedSuite('pricing: { pricey: { input: 0, output: 400 } }')); // $0.40 a call
    const shard = [1, 2].map((index) => ({ index, total: 2 })).find((candidate) => ['a', 'b', 'c', 'd'].filter((id) => inShard(id, candidate)).length >= 2)!;
    const selected = ['a', 'b', 'c', 'd'].filter((id) => inShard(id, shard));
    // The PR's $0.80 over 2 shards: $0.40 here, spent by the shard's first scenario.
    const split = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out-split', budgetUsd: 0.8, shard }, deps(dir));
    expect(split.report.budget).toMatchObject({ limit_usd: 0.4, exhausted: true, split: { total_usd: 0.8, shards: 2 } });
    expect(split.report.results.filter((result) => result.status === 'pass')).toHaveLength(1);
    // The rest of the shard never started (blocking scenarios that did not run are warn).
    expect(split.report.results.filter((result) => result.status === 'warn')).toHaveLength(selected.length - 1);
    expect(readFileSync(join(dir, 'out-split/summary.md'), 'utf8')).toContain("Budget $0.4000 (this shard's share of $0.8000 for 2 shards), exhausted");

    const whole = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out-whole', budgetUsd: 0.8, shard, budgetPerShard: true }, deps(dir));
    expect(whole.report.budget).toMatchObject({ limit_usd: 0.8, exhausted: selected.length >= 2 });
    expect(whole.report.budget!.split).toBeUndefined();
    expect(whole.report.results.filter((result) => result.status === 'pass')).toHaveLength(2);
  });

  it('stores what the run paid each model for parley cost; a replay of it pays nothing', async () => {
    const dir = writeTempSuite(pricedSuite('pricing: { pricey: { input: 0, output: 400 } }')); // $0.40 a call
    const live = await runSuite({ suitePath: dir, mode: 'record', outDir: 'out-live' }, deps(dir));
    const replay = await runSuite({ suitePath: dir, mode: 'replay', outDir: 'out-replay' }, deps(dir));
    const spend = openModelSpend(join(dir, '.parley/parley.db'));
    try {
      const runs = spend.runsSince('1970-01-01');
      expect(runs.find((run) => run.run_id === live.run_id)!.models).toEqual([
        { provider: 'openai', model: 'pricey', role: 'agent', calls: 4, input_tokens: expect.any(Number), output_tokens: expect.any(Number), cost_usd: expect.closeTo(1.6, 10), unpriced_calls: 0, cached_input_tokens: 0, cache_saving_usd: 0, cache_write_input_tokens: 0 },
      ]);
      expect(runs.find((run) => run.run_id === replay.run_id)!.models).toEqual([]);
    } finally {
      spend.close();
    }
  });

  it('splits a budget across shards only when there is more than one', () => {
    expect(shardBudget(20, { index: 1, total: 4 }, false)).toEqual({ limitUsd: 5, split: { total_usd: 20, shards: 4 } });
    expect(shardBudget(20, { index: 3, total: 4 }, true)).toEqual({ limitUsd: 20 });
    expect(shardBudget(20, { index: 1, total: 1 }, false)).toEqual({ limitUsd: 20 });
    expect(shardBudget(20, undefined, false)).toEqual({ limitUsd: 20 });
    expect(shardBudget(undefined, { index: 1, total: 4 }, false)).toBeUndefined();
  });

  it('takes the budget from --budget, else PARLEY_BUDGET_USD, else settings.budget_usd', () => {
    expect(budgetLimit(2, { PARLEY_BUDGET_USD: '5' }, 9)).toBe(2);
    expect(budgetLimit(undefined, { PARLEY_BUDGET_USD: '5' }, 9)).toBe(5);
    expect(budgetLimit(undefined, {}, 9)).toBe(9);
    expect(budgetLimit(undefined, {}, undefined)).toBeUndefined();
    expect(() => budgetLimit(undefined, { PARLEY_BUDGET_USD: 'lots' }, undefined)).toThrow('PARLEY_BUDGET_USD must be an amount of US dollars');
  });

  it('keeps what finished when interrupted (exit 130), and --resume finishes the same run', async () => {
    const dir = writeTempSuite(pricedSuite('pricing: { pricey: { input: 0.01, output: 0 } }'));
    const controller = new AbortController();
    const first = await runSuite(
      { suitePath: dir, mode: 'live', outDir: 'out', signal: controller.signal },
      { ...deps(dir), listeners: [(event) => event.type === 'scenario_finished' && event.result.scenario_id === 'b' && controller.abort()] },
    );
    expect(first.interrupted).toBe(true);
    expect(first.exit_code).toBe(130);
    expect(first.report.results.map((result) => result.scenario_id)).toEqual(['a', 'b']);

    const events: RunEvent[] = [];
    const resumed = await runSuite({ suitePath: 'ignored', resume: first.run_id.slice(0, 18) }, deps(dir, events));
    expect(resumed.run_id).toBe(first.run_id);
    expect(resumed.out_dir).toBe(first.out_dir);
    expect(events[0]).toMatchObject({ type: 'run_started', scenario_ids: ['c', 'd'] });
    expect(resumed.report.results.map((result) => [result.scenario_id, result.status])).toEqual([
      ['a', 'pass'],
      ['b', 'pass'],
      ['c', 'pass'],
      ['d', 'pass'],
    ]);
    expect(resumed.exit_code).toBe(0);
    const store = openStore(join(dir, '.parley/parley.db'));
    try {
      expect(store.getRun(first.run_id)).toMatchObject({ exit_code: 0, finished: true, scenario_count: 4 });
    } finally {
      store.close();
    }
    await expect(runSuite({ suitePath: '.', resume: first.run_id }, deps(dir))).rejects.toThrow(/that run finished \(exit 0\)/);
  });
});
