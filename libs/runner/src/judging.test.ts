import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isConfigError, manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer, type ScriptedReply } from '@parley/fake-llm';
import { runSuite } from './run-suite.js';
import { loadSuiteForRun } from './load-suite-for-run.js';
import type { RunDependencies, RunOptions } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

/** Judge metrics in a run: the primary judge is Anthropic, the agent OpenAI, both through the real SDKs. */
const JUDGED: Record<string, string> = {
  'parley.yaml': `suite: judged
agents:
  booking: { kind: openai, model: gpt-4.1-mini, system_prompt: prompts/booking.md, temperature: 0 }
judge:
  primary: { provider: anthropic, model: claude-opus-4-7 }
settings: { concurrency: 2, retries: { max: 0 } }
`,
  'prompts/booking.md': 'You book massages at Zuri Spa. Answer in the customer\'s language.\n',
  'metrics/slot_consistency.yaml': `name: slot_consistency
version: 1.0.0
scale: { min: 1, max: 5 }
rubric: Score 5 when the booked slot is one the assistant offered.
applies_to: conversation
criteria:
  - { id: offered_slot, text: The booked slot was offered, level: required }
`,
  'scenarios/happy.yaml': `id: happy
agent: booking
language: sw
user:
  opening: "Habari! Nataka massage Jumamosi."
  script: ["Ndiyo, saa 10:00."]
expect:
  - { metric: content_signals, required: ["BK-1042"] }
  - { metric: conversation_judge, criteria: "Confirms the booking number." }
  - { metric: slot_consistency, threshold: 0.8 }
`,
  'scenarios/nails.yaml': `id: nails
agent: booking
user:
  opening: "Hello, do you do nails?"
expect:
  - { metric: conversation_judge }
`,
};

const SW_CRITERIA = (status: string) =>
  ['swahili_reply', 'idiomatic_register', 'conventional_loanwords', 'code_switching', 'politeness_register'].map((id) => ({
    id,
    status: id === 'code_switching' ? 'not_applicable' : status,
    reason: `${id}.`,
  }));

const judgeReply = (content: Record<string, unknown>): ScriptedReply => ({ content, usage: { input_tokens: 800, output_tokens: 120 } });

const RULES = [
  // The agent under test.
  { when: { model: 'gpt-4.1-mini', last_user: '/Nataka massage/' }, reply: { content: 'Karibu! Tuna nafasi saa 10:00 Jumamosi. Ungependa?', usage: { input_tokens: 300, output_tokens: 20 } } },
  { when: { model: 'gpt-4.1-mini', last_user: '/Ndiyo, saa 10:00/' }, reply: { content: 'Nimekuwekea saa 10:00 Jumamosi. Namba ya booking: BK-1042.', usage: { input_tokens: 340, output_tokens: 22 } } },
  { when: { model: 'gpt-4.1-mini', last_user: '/nails/' }, reply: { content: 'Yes, we do manicures and pedicures.', usage: { input_tokens: 200, output_tokens: 10 } } },
  // The judge. slot_unmet: a top score, but a required criterion not met.
  {
    name: 'judge-slot-unmet',
    when: { model: 'claude-opus-4-7', system: '/"slot_unmet"/' },
    reply: judgeReply({ score: 5, reason: 'Warm and quick.', criteria: [{ id: 'offered_slot', status: 'not_met', reason: '10:00 was booked without being offered.' }] }),
  },
  {
    name: 'judge-conversation-happy',
    when: { model: 'claude-opus-4-7', system: '/"conversation_judge"/', any_message: '/BK-1042/' },
    reply: judgeReply({
      message_scores: [
        { message_index: 1, score: 90, reason: 'Offers the Saturday slot and asks one question.' },
        { message_index: 3, score: 80, reason: 'Confirms and gives BK-1042.' },
      ],
      overall_feedback: 'Warm and correct.',
    }),
  },
  { name: 'judge-slot', when: { model: 'claude-opus-4-7', system: '/"slot_consistency"/' }, reply: judgeReply({ score: 5, reason: '10:00 was offered and booked.', criteria: [{ id: 'offered_slot', status: 'met', reason: 'Offered at message 1.' }] }) },
  {
    name: 'judge-fluency-sw',
    when: { model: 'claude-opus-4-7', system: '/"fluency_sw"/' },
    reply: judgeReply({
      message_scores: [
        { message_index: 1, score: 5, reason: 'Natural Swahili.', criteria: SW_CRITERIA('met') },
        { message_index: 3, score: 4, reason: '"booking" is conventional.', criteria: SW_CRITERIA('met') },
      ],
      overall_feedback: 'Idiomatic Kenyan Swahili.',
    }),
  },
  // A judge that cannot answer in JSON about the nails conversation, twice.
  { name: 'judge-garbage', when: { model: 'claude-opus-4-7', any_message: '/manicures/' }, replies: [{ content: 'Looks good to me!' }, { content: 'Score: 8/10' }] },
];

const FAKE_KEYS = { OPENAI_API_KEY: 'sk-test-JUDGING-openai-0123', ANTHROPIC_API_KEY: 'sk-ant-test-JUDGING-0123' };
let server: FakeLlmServer;
let seed = 900;

function deps(cwd: string, env?: NodeJS.ProcessEnv): RunDependencies {
  return {
    cwd,
    env: env ?? { ...FAKE_KEYS, OPENAI_BASE_URL: server.openaiBaseUrl, ANTHROPIC_BASE_URL: server.anthropicBaseUrl },
    clock: manualClock(),
    random: seededRandom((seed += 1)),
    resilience: { sleep: async () => {}, random: () => 0.5 },
  };
}

const judgeCalls = (model = 'claude-opus-4-7') => server.requests.filter((request) => request.model === model);
const agentCalls = () => server.requests.filter((request) => request.model === 'gpt-4.1-mini');

async function run(dir: string, options: Partial<RunOptions> = {}, env?: NodeJS.ProcessEnv) {
  return runSuite({ suitePath: dir, outDir: `out/${(seed += 1)}`, ...options }, deps(dir, env));
}

function metric(outcome: Awaited<ReturnType<typeof run>>, scenario: string, name: string) {
  const result = outcome.report.results.find((entry) => entry.scenario_id === scenario)!;
  return result.metrics.find((entry) => entry.metric === name)!;
}

beforeAll(async () => {
  server = await startFakeLlm({ script: { rules: RULES } });
});
beforeEach(async () => {
  await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
});
afterAll(async () => {
  await server?.close();
});

describe('judge metrics in a run', () => {
  it('records judge calls with the conversation and replays them offline, with per-message scores and reasons', async () => {
    const dir = writeTempSuite(JUDGED);
    const recorded = await run(dir, { mode: 'record' });
    const happy = recorded.report.results.find((result) => result.scenario_id === 'happy')!;
    expect(happy.status).toBe('pass');
    expect(happy.metrics.map((entry) => [entry.metric, entry.score])).toEqual([
      ['content_signals', null],
      ['conversation_judge', 0.85],
      ['slot_consistency', 1],
      // Attached by `language: sw`.
      ['fluency_sw', 0.875],
    ]);
    expect(metric(recorded, 'happy', 'conversation_judge').details).toMatchObject({
      message_scores: [
        { message_index: 1, score: 90, reason: 'Offers the Saturday slot and asks one question.' },
        { message_index: 3, score: 80, reason: 'Confirms and gives BK-1042.' },
      ],
      judge_model: 'anthropic:claude-opus-4-7',
    });
    const roles = readFileSync(join(dir, 'recordings/happy.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).role);
    expect(roles).toEqual(['agent', 'agent', 'judge', 'judge', 'judge']);
    // Judge calls are priced and counted with the scenario's (claude-opus-4-7: $5 / $25 per million).
    expect(happy.cost.calls).toBe(5);
    expect(happy.cost.usd).toBeCloseTo((300 * 0.4 + 20 * 1.6 + 340 * 0.4 + 22 * 1.6) / 1e6 + 3 * (800 * 5 + 120 * 25) / 1e6, 12);
    expect(recorded.report.judge).toMatchObject({ primary: 'anthropic:claude-opus-4-7', mode: 'live', verdicts: 4, errors: 1 });

    const callsBefore = server.requests.length;
    const replayed = await run(dir, {}, {});
    expect(server.requests.length).toBe(callsBefore);
    expect(replayed.report.judge?.mode).toBe('replay');
    expect(replayed.report.results.map((result) => result.metrics)).toEqual(recorded.report.results.map((result) => result.metrics));
  });

  it('never shows the judge the model that produced the conversation', async () => {
    const dir = writeTempSuite(JUDGED);
    await run(dir, { mode: 'live', noCache: true });
    expect(judgeCalls().length).toBeGreaterThan(0);
    for (const call of judgeCalls()) expect(JSON.stringify(call.body)).not.toContain('gpt-4.1-mini');
  });

  it('turns a judge that answers garbage twice into an error result with the raw output, and the run goes on', async () => {
    const dir = writeTempSuite(JUDGED);
    const outcome = await run(dir, { mode: 'live', noCache: true });
    const nails = outcome.report.results.find((result) => result.scenario_id === 'nails')!;
    expect(nails.status).toBe('error');
    expect(nails.reason).toMatch(/^conversation_judge: conversation_judge could not be evaluated: the judge's answer was unusable twice/);
    expect(nails.metrics[0]!.details).toMatchObject({ raw_outputs: ['Looks good to me!', 'Score: 8/10'], judge_calls: 2 });
    expect(outcome.report.results.find((result) => result.scenario_id === 'happy')!.status).toBe('pass');
    expect(outcome.exit_code).toBe(1);
  });
});

describe('the judge cache', () => {
  it('makes a second live run of an unchanged suite call no judge at all; cached verdicts cost 0 and say so', async () => {
    const dir = writeTempSuite(JUDGED);
    const first = await run(dir, { mode: 'live' });
    expect(judgeCalls()).toHaveLength(3 + 2); // happy: 3 metrics; nails: 2 unusable answers (never cached)
    expect(first.report.judge?.cache).toMatchObject({ read: true, written: true, hits: 0, misses: 4 });

    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const second = await run(dir, { mode: 'live' });
    expect(judgeCalls().filter((call) => JSON.stringify(call.body).includes('BK-1042'))).toHaveLength(0);
    expect(agentCalls()).toHaveLength(3); // the conversation itself is live again
    for (const name of ['conversation_judge', 'slot_consistency', 'fluency_sw']) {
      const cached = metric(second, 'happy', name);
      expect(cached.details).toMatchObject({ cached: true });
      expect(cached.score).toBe(metric(first, 'happy', name).score);
      expect(cached.reason).toContain('[cached verdict, cost 0]');
    }
    const happyCost = second.report.results.find((result) => result.scenario_id === 'happy')!.cost;
    expect(happyCost.calls).toBe(2); // only the agent's
    expect(second.report.judge?.cache).toMatchObject({ hits: 3, misses: 1, saved_usd: expect.closeTo((3 * (800 * 5 + 120 * 25)) / 1e6, 12) });
    expect(readFileSync(join(second.out_dir, 'summary.md'), 'utf8')).toContain('3 from the cache');
  });

  it("misses for a metric whose version was bumped, and for every metric when the agent's prompt file changed", async () => {
    const dir = writeTempSuite(JUDGED);
    await run(dir, { mode: 'live' });
    const metricFile = join(dir, 'metrics/slot_consistency.yaml');
    writeFileSync(metricFile, readFileSync(metricFile, 'utf8').replace('version: 1.0.0', 'version: 1.1.0').replace('Score 5', 'Give 5'));
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const bumped = await run(dir, { mode: 'live' });
    expect(judgeCalls().map((call) => JSON.stringify(call.body).match(/metric \\"(\w+)\\"/)?.[1]).sort()).toEqual(['conversation_judge', 'conversation_judge', 'slot_consistency']);
    expect(metric(bumped, 'happy', 'slot_consistency')).toMatchObject({ version: '1.1.0' });
    expect(metric(bumped, 'happy', 'slot_consistency').details?.['cached']).toBeUndefined();
    expect(metric(bumped, 'happy', 'fluency_sw').details?.['cached']).toBe(true);

    writeFileSync(join(dir, 'prompts/booking.md'), 'You book massages at Zuri Spa. Be brief.\n');
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const reprompted = await run(dir, { mode: 'live' });
    expect(reprompted.report.judge?.cache).toMatchObject({ hits: 0, misses: 4 });
    expect(judgeCalls().filter((call) => JSON.stringify(call.body).includes('BK-1042'))).toHaveLength(3);
  });

  it('--no-cache judges afresh without touching the cache; --cache-clear empties it first', async () => {
    const dir = writeTempSuite(JUDGED);
    await run(dir, { mode: 'live' });
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const ignored = await run(dir, { mode: 'live', noCache: true });
    expect(judgeCalls()).toHaveLength(5);
    expect(ignored.report.judge?.cache).toMatchObject({ read: false, written: false, hits: 0 });
    const cleared = await run(dir, { mode: 'live', cacheClear: true });
    expect(cleared.report.judge?.cache).toMatchObject({ cleared: true, hits: 0, misses: 4 });
  });

  it('--judge live replays the conversation and judges it live', async () => {
    const dir = writeTempSuite(JUDGED);
    await run(dir, { mode: 'record' });
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const outcome = await run(dir, { judgeMode: 'live', noCache: true });
    expect(outcome.report.mode).toBe('replay');
    expect(outcome.report.judge?.mode).toBe('live');
    expect(agentCalls()).toHaveLength(0);
    expect(judgeCalls()).toHaveLength(5);
  });
});

describe('loading a suite with judge metrics', () => {
  it('refuses a judge metric without a judge', () => {
    const dir = writeTempSuite({ ...JUDGED, 'parley.yaml': JUDGED['parley.yaml']!.replace(/judge:\n.*\n/, '') });
    expect(() => loadSuiteForRun(dir)).toThrow(/conversation_judge is judged by an LLM, and parley.yaml has no judge: add judge: \{ primary: .* \(used by happy, nails\)/);
  });

  it('refuses a rubric changed under an unchanged version, pointing at the version line', () => {
    const dir = writeTempSuite(JUDGED);
    loadSuiteForRun(dir);
    const metricFile = join(dir, 'metrics/slot_consistency.yaml');
    writeFileSync(metricFile, readFileSync(metricFile, 'utf8').replace('Score 5', 'Give 5'));
    try {
      loadSuiteForRun(dir);
      expect.unreachable();
    } catch (error) {
      expect(isConfigError(error)).toBe(true);
      expect((error as Error).message).toMatch(/slot_consistency\.yaml:2:10: the rubric of "slot_consistency" changed but its version is still 1\.0\.0/);
    }
  });

  it('rejects --judge replay in record mode', async () => {
    const dir = writeTempSuite(JUDGED);
    await expect(run(dir, { mode: 'record', judgeMode: 'replay' })).rejects.toThrow(/--judge replay cannot be used with --mode record/);
  });
});

/** Fifty scenarios, one judge metric each, a 10% cross-check with a second model. */
function fiftyScenarios(extraSuite = ''): Record<string, string> {
  const files: Record<string, string> = {
    'parley.yaml': `suite: fifty
agents:
  booking: { kind: openai, model: gpt-4.1-mini }
judge:
  primary: { provider: anthropic, model: claude-opus-4-7 }
  cross_check: { provider: openai, model: gpt-4.1, sample: 0.1 }
settings: { concurrency: 8, retries: { max: 0 } }
${extraSuite}`,
  };
  for (let index = 0; index < 50; index += 1) {
    const id = `s${String(index).padStart(2, '0')}`;
    files[`scenarios/${id}.yaml`] = `id: ${id}\nagent: booking\nuser: { opening: "Scenario ${id}: do you do nails?" }\nexpect:\n  - { metric: conversation_judge }\n`;
  }
  return files;
}

/** The fifty scenarios, all cross-checked (sample 100%), one at a time, every call $0.001 (1000 input tokens at $1 per million). */
function dollarPerThousandCalls(): Record<string, string> {
  const files = fiftyScenarios('pricing:\n  gpt-4.1-mini: { input: 1, output: 0 }\n  claude-opus-4-7: { input: 1, output: 0 }\n  gpt-4.1: { input: 1, output: 0 }\n');
  return { ...files, 'parley.yaml': files['parley.yaml']!.replace('sample: 0.1', 'sample: 1.0').replace('concurrency: 8', 'concurrency: 1') };
}

describe('cross-check', () => {
  let fifty: FakeLlmServer;
  const verdict = (score: number) => ({ content: { message_scores: [{ message_index: 1, score, reason: 'ok' }], overall_feedback: 'ok' }, usage: { input_tokens: 1000, output_tokens: 0 } });
  beforeAll(async () => {
    fifty = await startFakeLlm({
      script: {
        rules: [
          { when: { model: 'gpt-4.1-mini' }, reply: { content: 'Yes, we do nails.', usage: { input_tokens: 1000, output_tokens: 0 } } },
          { when: { model: 'claude-opus-4-7' }, reply: verdict(90) },
          // The second opinion agrees on s0x scenarios and disagrees on the others.
          { when: { model: 'gpt-4.1', any_message: '/Scenario s0/' }, reply: verdict(80) },
          { when: { model: 'gpt-4.1' }, reply: verdict(40) },
        ],
      },
    });
  });
  afterAll(async () => {
    await fifty?.close();
  });
  const fiftyDeps = (cwd: string): RunDependencies => ({ ...deps(cwd), env: { ...FAKE_KEYS, OPENAI_BASE_URL: fifty.openaiBaseUrl, ANTHROPIC_BASE_URL: fifty.anthropicBaseUrl } });
  const crossChecked = () => fifty.requests.filter((request) => request.model === 'gpt-4.1').map((request) => JSON.stringify(request.body).match(/Scenario (s\d\d)/)![1]!).sort();

  it('re-judges exactly 5 of 50 scenarios at 10%, the same 5 for the same seed, and reports agreement per metric', async () => {
    const dir = writeTempSuite(fiftyScenarios());
    const first = await runSuite({ suitePath: dir, mode: 'live', seed: 42, noCache: true, outDir: 'out/a' }, fiftyDeps(dir));
    const sample = first.report.judge!.cross_check!;
    expect(sample.sampled).toHaveLength(5);
    expect(sample.checked).toEqual(sample.sampled);
    expect(crossChecked()).toEqual(sample.sampled);
    const agreeing = sample.sampled.filter((id) => id.startsWith('s0')).length;
    expect(sample.agreement).toEqual([
      { metric: 'conversation_judge', compared: 5, agreed: agreeing, rate: agreeing / 5, mean_abs_score_difference: expect.closeTo((agreeing * 0.1 + (5 - agreeing) * 0.5) / 5, 12) },
    ]);
    const crossDetails = first.report.results.find((result) => result.scenario_id === sample.sampled[0])!.metrics[0]!.details!['cross_check'];
    expect(crossDetails).toMatchObject({ judge_model: 'openai:gpt-4.1', passed: expect.any(Boolean), agrees: expect.any(Boolean) });

    fifty.resetLog();
    const again = await runSuite({ suitePath: dir, mode: 'live', seed: 42, noCache: true, outDir: 'out/b' }, fiftyDeps(dir));
    expect(again.report.judge!.cross_check!.sampled).toEqual(sample.sampled);
    expect(crossChecked()).toEqual(sample.sampled);
    const other = await runSuite({ suitePath: dir, mode: 'live', seed: 43, noCache: true, outDir: 'out/c' }, fiftyDeps(dir));
    expect(other.report.judge!.cross_check!.sampled).not.toEqual(sample.sampled);
  });

  it('cross-checks, across the shards of a run, exactly the sample the unsharded run draws', async () => {
    const dir = writeTempSuite(fiftyScenarios());
    const whole = await runSuite({ suitePath: dir, mode: 'live', seed: 42, noCache: true, outDir: 'out/whole' }, fiftyDeps(dir));
    const shards = await Promise.all(
      [1, 2, 3].map((index) => runSuite({ suitePath: dir, mode: 'live', seed: 42, noCache: true, shard: { index, total: 3 }, outDir: `out/shard${index}` }, fiftyDeps(dir))),
    );
    const checked = shards.flatMap((shard) => shard.report.judge!.cross_check!.checked).sort();
    expect(checked).toEqual(whole.report.judge!.cross_check!.checked);
    for (const shard of shards) expect(shard.report.judge!.cross_check!.sampled).toEqual(shard.report.judge!.cross_check!.checked);
  });

  it('replaying a subset whose sample the recording does not have says so instead of failing', async () => {
    const dir = writeTempSuite(fiftyScenarios());
    const recorded = await runSuite({ suitePath: dir, mode: 'record', seed: 42, outDir: 'out/record' }, fiftyDeps(dir));
    const unsampled = recorded.report.results.map((result) => result.scenario_id).find((id) => !recorded.report.judge!.cross_check!.sampled.includes(id))!;
    // Alone, the scenario is its own 10% sample (ceil), but the recording has no cross-check of it.
    const subset = await runSuite({ suitePath: dir, seed: 42, globs: [unsampled], outDir: 'out/subset' }, { ...fiftyDeps(dir), env: {} });
    const result = subset.report.results[0]!;
    expect(result.status).toBe('pass');
    expect(result.metrics[0]!.details!['cross_check']).toEqual({ judge_model: 'openai:gpt-4.1', not_recorded: true });
    expect(subset.report.judge!.cross_check).toMatchObject({ sampled: [unsampled], checked: [] });
  });

  it('drops to 0% once spending reaches the budget, and the report says when and why', async () => {
    const dir = writeTempSuite({ ...dollarPerThousandCalls() });
    // s00, s01: agent, judge, cross-check = $0.003 each. s02 (its estimate, $0.003, fits in $0.004): agent → $0.007,
    // judge → $0.008 = 80% of $0.01: no cross-check. s03's estimate ($0.003) does not fit in $0.002: s03… are skipped.
    const outcome = await runSuite({ suitePath: dir, mode: 'live', seed: 1, noCache: true, budgetUsd: 0.01, outDir: 'out/budget' }, fiftyDeps(dir));
    const crossCheck = outcome.report.judge!.cross_check!;
    expect(crossCheck.checked).toEqual(['s00', 's01']);
    expect(crossCheck.downgrade).toMatchObject({ reason: 'budget', spent_usd: expect.closeTo(0.008, 12), limit_usd: 0.01, not_checked: ['s02'] });
    expect(outcome.report.budget?.downgrades[0]).toBe(
      'cross-check sample 100% → 0% at 80% of the budget: $0.0080 of $0.0100 spent (2 of 50 sampled scenarios cross-checked before); 1 sampled scenario not cross-checked: s02',
    );
    expect(outcome.report.budget?.downgrades[1]).toMatch(/^47 scenarios skipped/);
    expect(outcome.report.budget?.spent_usd).toBeCloseTo(0.008, 12);
    expect(outcome.report.results.find((result) => result.scenario_id === 's02')!.status).toBe('pass');
    const summary = readFileSync(join(dir, 'out/budget/summary.md'), 'utf8');
    expect(summary).toContain('cross-check sample 100% → 0%');
  });

  it('cross-checks a scenario on all its judge metrics or on none: never both checked and not checked', async () => {
    const dir = writeTempSuite({
      ...dollarPerThousandCalls(),
      // Two judge metrics (its own and fluency_sw): the 80% mark ($0.004 of $0.005) is reached between them.
      'scenarios/s00.yaml': 'id: s00\nagent: booking\nlanguage: sw\nuser: { opening: "Scenario s00: do you do nails?" }\nexpect:\n  - { metric: conversation_judge }\n',
    });
    const outcome = await runSuite({ suitePath: dir, mode: 'live', seed: 1, noCache: true, budgetUsd: 0.005, outDir: 'out/both' }, fiftyDeps(dir));
    const crossCheck = outcome.report.judge!.cross_check!;
    expect(crossCheck.checked).toContain('s00');
    for (const id of crossCheck.checked) expect(crossCheck.downgrade?.not_checked ?? []).not.toContain(id);
    const s00 = outcome.report.results.find((result) => result.scenario_id === 's00')!;
    expect(s00.metrics.map((metric) => metric.details?.['cross_check'] !== undefined)).toEqual([true, true]);
  });

  it('stops cross-checking at 80% of the budget and goes on judging with the primary judge alone', async () => {
    const dir = writeTempSuite({ ...dollarPerThousandCalls() });
    // $0.012, 80% = $0.0096. s00…s02: $0.003 each with their cross-checks ($0.009). s03 (estimate $0.003 fits
    // exactly): agent $0.010, judge $0.011 ≥ $0.0096: no cross-check. s04's estimate does not fit in $0.001.
    const outcome = await runSuite({ suitePath: dir, mode: 'live', seed: 1, noCache: true, budgetUsd: 0.012, outDir: 'out/budget80' }, fiftyDeps(dir));
    const crossCheck = outcome.report.judge!.cross_check!;
    expect(crossCheck.checked).toEqual(['s00', 's01', 's02']);
    expect(crossCheck.downgrade).toMatchObject({ spent_usd: expect.closeTo(0.011, 12), limit_usd: 0.012, not_checked: ['s03'] });
    const judged = outcome.report.results.filter((result) => result.status === 'pass').map((result) => result.scenario_id);
    expect(judged).toEqual(['s00', 's01', 's02', 's03']);
    expect(outcome.report.budget?.downgrades[1]).toMatch(/^46 scenarios skipped/);
    expect(outcome.report.budget?.spent_usd).toBeLessThanOrEqual(0.012);
  });
});

describe('a judge metric added to a recorded suite', () => {
  it('is an error naming the recording miss and how to get its answer, until re-recorded or judged live', async () => {
    const dir = writeTempSuite(JUDGED);
    await run(dir, { mode: 'record' });
    const scenario = join(dir, 'scenarios/happy.yaml');
    writeFileSync(scenario, readFileSync(scenario, 'utf8').replace('criteria: "Confirms the booking number."', 'criteria: "Confirms the booking number and the time."'));
    const replayed = await run(dir, {}, {});
    const judged = metric(replayed, 'happy', 'conversation_judge');
    expect(judged.error).toBe(true);
    expect(judged.reason).toMatch(/recording miss in scenario happy, turn 0, role judge.*\(re-record the scenario, or judge the replay live with --judge live\)$/);
    expect(judged.details?.['error_details']).toContain('Closest recorded request');
  });
});

describe('a required rubric criterion that is not met', () => {
  const files = (thresholding: string): Record<string, string> => ({
    'parley.yaml': JUDGED['parley.yaml']!.replace('settings: { concurrency: 2, retries: { max: 0 } }', `settings: { concurrency: 2, retries: { max: 0 }${thresholding} }`),
    'prompts/booking.md': JUDGED['prompts/booking.md']!,
    'metrics/slot_unmet.yaml': JUDGED['metrics/slot_consistency.yaml']!.replace('name: slot_consistency', 'name: slot_unmet'),
    'scenarios/unmet.yaml': `id: unmet
agent: booking
user:
  opening: "Habari! Nataka massage Jumamosi."
  script: ["Ndiyo, saa 10:00."]
expect:
  - { metric: slot_unmet }
`,
  });

  it.each([
    ['relative thresholding', ''],
    ['a min_floor the score clears', ', thresholding: { mode: relative, max_drop: 0.05, min_floor: 0.5 }'],
    ['absolute thresholding', ', thresholding: { mode: absolute }'],
  ])('fails the run whatever a baseline says (%s): record, export a baseline, gate against it', async (_name, thresholding) => {
    const dir = writeTempSuite(files(thresholding));
    const recorded = await run(dir, { mode: 'record' });
    expect(recorded.exit_code).toBe(1);
    expect(metric(recorded, 'unmet', 'slot_unmet')).toMatchObject({ score: 1, passed: false });
    const exported = await run(dir, { exportBaseline: 'baseline.json' }, {});
    expect(exported.exported_baseline?.entries).toBe(1);
    const gated = await run(dir, { baseline: 'baseline.json' }, {});
    const gatedMetric = metric(gated, 'unmet', 'slot_unmet');
    expect(gatedMetric.passed).toBe(false);
    expect(gatedMetric.reason).toContain('"offered_slot" not met');
    expect(gated.report.results[0]!.status).toBe('fail');
    expect(gated.exit_code).toBe(1);
  });
});
