import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadSuite, type LoadedSuite } from '@parley/config';
import { isConfigError, manualClock } from '@parley/core';
import { startFakeLangfuse, type FakeLangfuse } from '@parley/fake-langfuse';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { judgeMetricParamSchemas } from '@parley/judge';
import { deterministicMetrics } from '@parley/metrics';
import type { Located, LoggedConversation } from '@parley/production';
import { suiteRedactor } from '@parley/redaction';
import { openOutbox } from '@parley/store';
import { monitorScoreId } from './monitor-score-id.js';
import type { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { monitorConversations } from './monitor-conversations.js';
import type { MonitorInput } from './monitor-outcome.js';

const HOUR = 3_600_000;
const T0 = new Date('2026-11-27T12:00:00.000Z');

/** A booking suite with a judge (gpt-4.1), a 1–5 rubric metric in its defaults (floor 0.6) and a restricted vertical. */
const SUITE: Record<string, string> = {
  'parley.yaml': `suite: zuri_booking
agents:
  booking: { kind: openai, model: gpt-4.1-mini, system_prompt: prompts/booking.md }
judge:
  primary: { provider: openai, model: gpt-4.1, temperature: 0 }
defaults:
  expect:
    - { metric: service_quality, threshold: 0.6 }
redaction:
  restricted_verticals: [dental]
`,
  'prompts/booking.md': 'You are Ratiba, the booking assistant of Zuri Spa & Salon in Kilimani, Nairobi.\n',
  'metrics/service_quality.yaml': `name: service_quality
version: 1.0.0
scale: { min: 1, max: 5 }
applies_to: conversation
rubric: |
  5: the customer got what they asked for, politely and clearly. 1: they did not.
`,
  'scenarios/blowdry.yaml': `id: blowdry
agent: booking
user:
  opening: "A blow-dry on Thursday, please."
`,
};

let dir: string;
let suite: LoadedSuite;
let llm: FakeLlmServer | undefined;
let langfuse: FakeLangfuse | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-monitor-'));
  for (const [path, text] of Object.entries(SUITE)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const metricParams: Record<string, z.ZodType> = {
    ...Object.fromEntries(Object.entries(deterministicMetrics).map(([name, metric]) => [name, metric.params as z.ZodType])),
    ...judgeMetricParamSchemas(),
  };
  suite = loadSuite(dir, { metricParams });
});
afterEach(async () => {
  await llm?.close();
  await langfuse?.close();
  llm = undefined;
  langfuse = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** `count` conversations of Grace Achieng that ended an hour before `at`; the first one is at a dentist when `dental`. */
function conversations(prefix: string, count: number, at: Date, options: { dental?: boolean } = {}): Array<Located<LoggedConversation>> {
  const ended = new Date(at.getTime() - HOUR).toISOString();
  return Array.from({ length: count }, (_, index) => ({
    line: index + 1,
    value: {
      conversation_id: `${prefix}-${String(index).padStart(3, '0')}`,
      tenant: 'zuri_spa',
      vertical: options.dental && index === 0 ? 'dental' : 'salon',
      customer: { name: 'Grace Achieng' },
      turns: [
        { role: 'user' as const, content: "Hi, it's Grace Achieng, a blow-dry on Thursday please.", timestamp: ended },
        { role: 'assistant' as const, content: 'Karibu Grace Achieng! Thursday 15:00 is free: shall I book it?', timestamp: ended },
      ],
    },
  }));
}

/** A judge on fake-llm answering `score` (of 1–5) to every conversation. */
async function judgeAnswering(score: number): Promise<FakeLlmServer> {
  await llm?.close();
  llm = await startFakeLlm({
    script: { rules: [], fallback: { content: JSON.stringify({ score, reason: 'The customer, Grace Achieng, got a clear answer.' }), usage: { input_tokens: 1500, output_tokens: 40 } } },
  });
  return llm;
}

function input(items: Array<Located<LoggedConversation>>, now: Date, extra: Partial<MonitorInput> = {}): MonitorInput {
  const clock = manualClock(now);
  return {
    suite,
    logsFile: 'prod/conversations.jsonl',
    conversations: items,
    redactor: suiteRedactor(suite),
    storePath: join(dir, '.parley', 'parley.db'),
    clock,
    env: { OPENAI_API_KEY: 'sk-fake-monitor', OPENAI_BASE_URL: llm?.openaiBaseUrl },
    dryRun: false,
    windowMs: 6 * HOUR,
    previousWindows: 4,
    concurrency: 4,
    ...extra,
  };
}

const judgeCalls = () => llm!.requests.filter((request) => request.api !== 'control');

describe('monitorConversations', () => {
  it('judges each conversation once, masked, refusing restricted verticals; a second run judges none', async () => {
    await judgeAnswering(4);
    const items = conversations('wa', 12, T0, { dental: true });
    const first = await monitorConversations(input(items, T0));
    expect(first.refused).toEqual([{ source: 'prod/conversations.jsonl:1', conversation: 'wa-000', reason: expect.stringContaining('"dental" is a restricted vertical') }]);
    expect(first.judged).toHaveLength(11);
    expect(first.judged.map((item) => item.source)).toEqual(items.slice(1).map((item) => `prod/conversations.jsonl:${item.line}`));
    expect(first.judged.every((item) => item.status === 'judged' && item.scores[0]!.metric === 'service_quality' && item.scores[0]!.score === 0.75)).toBe(true);
    // gpt-4.1 at $2 / $8 per million tokens: 1,500 in and 40 out per conversation.
    expect(first.spent_usd).toBeCloseTo((11 * (1500 * 2 + 40 * 8)) / 1e6, 10);
    expect(judgeCalls()).toHaveLength(11);
    expect(JSON.stringify(judgeCalls())).not.toContain('Grace Achieng');
    expect(first.windows).toEqual([expect.objectContaining({ metric: 'service_quality', current: { n: 11, mean: 0.75 }, previous: { n: 0, mean: null }, floor: 0.6, below_floor: false })]);
    expect(first.exit_code).toBe(0);

    const second = await monitorConversations(input(items, T0));
    expect(second.already_judged).toBe(11);
    expect(second.judged).toEqual([]);
    expect(judgeCalls()).toHaveLength(11);
    // The stored scores still make the window.
    expect(second.windows[0]!.current).toEqual({ n: 11, mean: 0.75 });
  });

  it('plans and estimates on a dry run without calling the judge or storing anything', async () => {
    await judgeAnswering(4);
    const items = conversations('wa', 5, T0);
    const dry = await monitorConversations(input(items, T0, { dryRun: true }));
    expect(dry.planned.map((item) => [item.source, item.metrics])).toEqual(items.map((item) => [`prod/conversations.jsonl:${item.line}`, ['service_quality']]));
    expect(dry.estimated_usd).toBeGreaterThan(0);
    expect(dry.estimated_usd).toBeCloseTo(dry.planned.reduce((sum, item) => sum + item.estimated_usd!, 0), 12);
    expect(judgeCalls()).toHaveLength(0);
    const real = await monitorConversations(input(items, T0));
    expect(real.already_judged).toBe(0);
    expect(real.judged).toHaveLength(5);
  });

  it('alerts (exit 1) when the window\'s mean dropped significantly from the windows before', async () => {
    await judgeAnswering(5);
    const before = await monitorConversations(input(conversations('monday', 40, T0), T0));
    expect(before.alerts).toEqual([]);
    // Six hours later the judge gives 4 of 5 to everything: 0.75 against 1.0 before.
    await judgeAnswering(4);
    const later = new Date(T0.getTime() + 6 * HOUR);
    const after = await monitorConversations(input(conversations('tuesday', 40, later), later));
    expect(after.windows[0]).toMatchObject({ current: { n: 40, mean: 0.75 }, previous: { n: 40, mean: 1 }, below_floor: false, drop_test: { significant: true } });
    expect(after.alerts).toEqual(['service_quality: mean dropped from 1.000 (40 before) to 0.750 (40 now), p = < 0.0001 < 0.01']);
    expect(after.exit_code).toBe(1);
  });

  it('alerts when the mean falls below the floor, on however few conversations', async () => {
    await judgeAnswering(2);
    const outcome = await monitorConversations(input(conversations('wa', 3, T0), T0));
    expect(outcome.alerts).toEqual(['service_quality: mean 0.250 over 3 conversations is below its floor 0.60']);
    expect(outcome.exit_code).toBe(1);
  });

  it('stops judging at the budget and lists the conversations it left', async () => {
    await judgeAnswering(4);
    // One conversation costs $0.00332: the budget is spent after the first.
    const outcome = await monitorConversations(input(conversations('wa', 4, T0), T0, { budgetUsd: 0.001, concurrency: 1 }));
    expect(outcome.judged).toHaveLength(1);
    expect(outcome.skipped_for_budget.map((item) => item.source)).toEqual(['prod/conversations.jsonl:2', 'prod/conversations.jsonl:3', 'prod/conversations.jsonl:4']);
    expect(judgeCalls()).toHaveLength(1);
  });

  it('pushes each judged score onto the conversation\'s trace in Langfuse, under an id a re-run keeps', async () => {
    await judgeAnswering(4);
    langfuse = await startFakeLangfuse({ publicKey: 'pk-lf-m', secretKey: 'sk-lf-m', scores: [] });
    const items = conversations('wa', 3, T0);
    items[0]!.value.trace_id = 'trace-from-the-sdk';
    const outcome = await monitorConversations(input(items, T0, { langfuse: { baseUrl: langfuse.url, publicKey: 'pk-lf-m', secretKey: 'sk-lf-m' } }));
    expect(outcome.pushed_scores).toBe(3);
    const scores = langfuse.scores().sort((left, right) => String(left.traceId).localeCompare(String(right.traceId)));
    expect(scores.map((score) => [score.id, score.traceId, score.name, score.value])).toEqual([
      [monitorScoreId('wa-000', 'service_quality', '1.0.0'), 'trace-from-the-sdk', 'service_quality', 0.75],
      [monitorScoreId('wa-001', 'service_quality', '1.0.0'), 'wa-001', 'service_quality', 0.75],
      [monitorScoreId('wa-002', 'service_quality', '1.0.0'), 'wa-002', 'service_quality', 0.75],
    ]);
    expect(JSON.stringify(scores)).not.toContain('Grace Achieng');
  });

  it('keeps the scores Langfuse did not take in the outbox (exit 1) and sends them first on the next run, judging nothing again', async () => {
    await judgeAnswering(4);
    // Every score post fails (503) through the client's retries.
    langfuse = await startFakeLangfuse({ publicKey: 'pk-lf-m', secretKey: 'sk-lf-m', scores: [], faults: [{ path: '/api/public/scores', status: 503, times: 1_000 }] });
    const target = { baseUrl: langfuse.url, publicKey: 'pk-lf-m', secretKey: 'sk-lf-m' };
    const quick = { langfuse: target, langfuseOptions: { sleep: async () => {}, retry: { maxRetries: 1 } } };
    const items = conversations('wa', 3, T0);
    const down = await monitorConversations(input(items, T0, quick));
    expect(down).toMatchObject({ pushed_scores: 0, undelivered_scores: 3, exit_code: 1 });
    expect(down.delivery_error).toContain('HTTP 503');
    expect(down.judged).toHaveLength(3);
    expect(langfuse.scores()).toHaveLength(0);
    const paid = judgeCalls().length;
    expect(paid).toBe(3);
    const ids = ['wa-000', 'wa-001', 'wa-002'].map((id) => monitorScoreId(id, 'service_quality', '1.0.0')).sort();
    const outbox = openOutbox(join(dir, '.parley', 'parley.db'));
    try {
      const pending = outbox.pending('monitor_score', `langfuse ${target.baseUrl}`);
      expect(pending.map((item) => item.item_key).sort()).toEqual(ids);
      expect(pending.every((item) => item.attempts === 1 && item.last_error?.includes('HTTP 503'))).toBe(true);
    } finally {
      outbox.close();
    }

    // Langfuse is back at the same address: the next run sends the three first, once each.
    const port = Number(new URL(langfuse.url).port);
    await langfuse.close();
    langfuse = await startFakeLangfuse({ port, publicKey: 'pk-lf-m', secretKey: 'sk-lf-m', scores: [] });
    const delivered = await monitorConversations(input(items, T0, quick));
    expect(delivered).toMatchObject({ already_judged: 3, pushed_scores: 3, undelivered_scores: 0, delivery_error: null, exit_code: 0 });
    expect(langfuse.scores().map((score) => score.id).sort()).toEqual(ids);
    const posts = () => langfuse!.requests.filter((request) => request.path === '/api/public/scores').length;
    expect(posts()).toBe(3);
    const later = await monitorConversations(input(items, T0, quick));
    expect(later.pushed_scores).toBe(0);
    expect(posts()).toBe(3);
    // Nothing was judged again in the later runs.
    expect(judgeCalls()).toHaveLength(paid);
  });

  it('refuses a suite without a judge, and a --metric that is not a judge metric', async () => {
    const withoutJudge = { ...suite, config: { ...suite.config, judge: undefined } };
    const error = await monitorConversations({ ...input([], T0), suite: withoutJudge }).catch((caught: unknown) => caught);
    expect(isConfigError(error)).toBe(true);
    expect(String(error)).toContain('parley monitor judges with the suite\'s judge');
    const unknown = await monitorConversations(input(conversations('wa', 1, T0), T0, { metrics: ['content_signals'], dryRun: true })).catch((caught: unknown) => caught);
    expect(isConfigError(unknown)).toBe(true);
    expect(String(unknown)).toContain('--metric content_signals: not a judge metric of this suite');
  });
});
