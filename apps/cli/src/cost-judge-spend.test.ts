import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './test-support/example-copy.js';
import { MONITORED_SUITE, writeMonitorLog } from './test-support/monitored-suite.js';
import { parleyAsync } from './test-support/parley-process.js';
import { writeSuite } from './test-support/zuri-suite.js';

/** List prices (USD per million tokens) of the judge models used here, typed out apart from Parley's table. */
const PRICES = { 'gpt-4.1': { input: 2, output: 8 }, 'claude-opus-4-7': { input: 5, output: 25 } } as const;
const callUsd = (model: keyof typeof PRICES, input: number, output: number) => (input * PRICES[model].input + output * PRICES[model].output) / 1_000_000;

const MONITOR_USAGE = { input_tokens: 100_000, output_tokens: 5_000 };
const MONITOR_ANSWER = { content: JSON.stringify({ score: 4, reason: 'Clear answer.' }), usage: MONITOR_USAGE };
const CALIBRATION_USAGE = { input_tokens: 10_000, output_tokens: 1_000 };
const CALIBRATION_ANSWER = {
  content: JSON.stringify({ intent_comprehension: 4, response_naturalness: 4, cultural_appropriateness: 4, reason: 'clear and polite' }),
  usage: CALIBRATION_USAGE,
};
const CONVERSATIONS = 10;
const CALIBRATION_ITEMS = 25;

let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

interface CostJson {
  total_usd: number;
  runs: number;
  batch_saving_usd: number;
  by_source: Array<{ source: string; calls: number; usd: number; unpriced_calls: number }>;
  by_model: Array<{ provider: string; model: string; calls: number; input_tokens: number; output_tokens: number; usd: number }>;
}

describe('parley cost counts monitor and calibrate judge spend, and batch savings as a saving (real binary, fake-llm usage)', () => {
  it('adds monitor (live and --batch) and calibrate judge as their own lines, exact to the cent', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    cpSync(join(REPO_ROOT, 'calibration'), join(suite, 'calibration'), { recursive: true, filter: (source) => !source.includes(join('calibration', 'reports')) });
    llm = await startFakeLlm({ script: { rules: [], fallback: MONITOR_ANSWER } });
    const env = { OPENAI_BASE_URL: llm.openaiBaseUrl, ANTHROPIC_BASE_URL: llm.anthropicBaseUrl, OPENAI_API_KEY: 'sk-fake-cost', ANTHROPIC_API_KEY: 'sk-ant-fake-cost' };
    const monitor = ['monitor', '--logs', 'conversations.jsonl', '--sample', '100', '--format', 'json'];

    writeMonitorLog(suite, 'live-conv', CONVERSATIONS);
    const live = await parleyAsync(monitor, { cwd: suite, env });
    expect(live.status, live.stderr).toBe(0);
    expect(JSON.parse(live.stdout).judged).toHaveLength(CONVERSATIONS);

    // Another window's conversations, judged through the batch API: submitted, then collected.
    writeMonitorLog(suite, 'batch-conv', CONVERSATIONS);
    expect((await parleyAsync([...monitor, '--batch'], { cwd: suite, env })).status).toBe(0);
    expect(llm.completeBatches()).toBe(1);
    const collected = await parleyAsync([...monitor, '--batch'], { cwd: suite, env });
    expect(collected.status, collected.stderr).toBe(0);
    expect(JSON.parse(collected.stdout).judged).toHaveLength(CONVERSATIONS);

    llm.setScript({ rules: [], fallback: CALIBRATION_ANSWER });
    const calibrated = await parleyAsync(['calibrate', 'judge', '--mode', 'live', '--no-cache'], { cwd: suite, env });
    expect(calibrated.status, calibrated.stderr).toBe(0);

    const monitorLive = CONVERSATIONS * callUsd('gpt-4.1', MONITOR_USAGE.input_tokens, MONITOR_USAGE.output_tokens);
    const monitorBatch = monitorLive / 2;
    const calibration = CALIBRATION_ITEMS * (callUsd('claude-opus-4-7', CALIBRATION_USAGE.input_tokens, CALIBRATION_USAGE.output_tokens) + callUsd('gpt-4.1', CALIBRATION_USAGE.input_tokens, CALIBRATION_USAGE.output_tokens));
    // $2.40 live, $1.20 in batches (saving $1.20), $2.575 for calibration: $6.175 in all.
    expect([monitorLive, monitorBatch, calibration].map((usd) => usd.toFixed(3))).toEqual(['2.400', '1.200', '2.575']);

    const json = await parleyAsync(['cost', '--format', 'json'], { cwd: suite, env });
    expect(json.status, json.stderr).toBe(0);
    const cost = JSON.parse(json.stdout) as CostJson;
    const source = (name: string) => cost.by_source.find((row) => row.source === name)!;
    expect(cost.runs).toBe(0);
    expect(source('runs')).toEqual({ source: 'runs', calls: 0, usd: 0, unpriced_calls: 0 });
    expect(source('monitor')).toMatchObject({ calls: 2 * CONVERSATIONS, unpriced_calls: 0 });
    expect(source('monitor').usd).toBeCloseTo(monitorLive + monitorBatch, 9);
    expect(source('calibration')).toMatchObject({ calls: 2 * CALIBRATION_ITEMS, unpriced_calls: 0 });
    expect(source('calibration').usd).toBeCloseTo(calibration, 9);
    expect(cost.batch_saving_usd).toBeCloseTo(monitorLive - monitorBatch, 9);
    expect(cost.total_usd).toBeCloseTo(monitorLive + monitorBatch + calibration, 9);
    const model = (name: string) => cost.by_model.find((row) => row.model === name)!;
    expect(model('claude-opus-4-7')).toMatchObject({ provider: 'anthropic', calls: CALIBRATION_ITEMS, input_tokens: CALIBRATION_ITEMS * CALIBRATION_USAGE.input_tokens });
    expect(model('gpt-4.1')).toMatchObject({ provider: 'openai', calls: 2 * CONVERSATIONS + CALIBRATION_ITEMS });

    const text = await parleyAsync(['cost'], { cwd: suite, env });
    expect(text.stdout).toMatch(/^spend since \d{4}-\d{2}-\d{2}: \$6\.1750 over 0 runs, parley monitor and parley calibrate judge\n/);
    expect(text.stdout).toMatch(/│ monitor \(judge\) +│ +20 │ +\$3\.6000 │/);
    expect(text.stdout).toMatch(/│ calibrate judge +│ +50 │ +\$2\.5750 │/);
    expect(text.stdout).toContain('batch judging saved $1.2000 against normal prices (parley monitor --batch)');
  }, 180_000);
});
