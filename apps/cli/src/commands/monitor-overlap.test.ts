import { hashBucket } from '@parley/canary';
import { startFakeLangfuse, type FakeLangfuse, type FakeProductionTrace } from '@parley/fake-langfuse';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
// The store's driver helper is test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { storeDrivers, useStoreDriver } from '../../../../libs/store/src/test-support/each-driver.js';
import { MONITORED_SUITE } from '../test-support/monitored-suite.js';
import { parleyAsync } from '../test-support/parley-process.js';
import { writeSuite } from '../test-support/zuri-suite.js';

const KEYS = { LANGFUSE_PUBLIC_KEY: 'pk-lf-overlap', LANGFUSE_SECRET_KEY: 'sk-lf-overlap' };

let llm: FakeLlmServer | undefined;
let langfuse: FakeLangfuse | undefined;
afterEach(async () => {
  await llm?.close();
  await langfuse?.close();
  llm = undefined;
  langfuse = undefined;
});

/** 250 production traces that ended an hour ago, one conversation each, each answer different (so each judge request is its own). */
function productionTraces(): FakeProductionTrace[] {
  const at = new Date(Date.now() - 3_600_000);
  const iso = (offset: number) => new Date(at.getTime() + offset).toISOString();
  return Array.from({ length: 250 }, (_, index) => ({
    id: `trace-${String(index).padStart(4, '0')}`,
    timestamp: iso(0),
    name: 'booking-turn',
    sessionId: `session-${index}`,
    metadata: { conversation_id: `wa:254733${String(index).padStart(6, '0')}`, tenant_id: 'zuri_spa', prompt_version: 'booking@v8' },
    observations: [
      {
        id: `obs-${index}`,
        type: 'GENERATION',
        name: 'agent',
        model: 'gpt-4.1-mini',
        startTime: iso(1000),
        endTime: iso(2500),
        input: [{ role: 'user', content: 'A blow-dry on Thursday please.' }],
        output: { role: 'assistant', content: `Thursday slot ${index} is free: shall I book it?` },
      },
    ],
  }));
}

describe.each(storeDrivers)('two overlapping parley monitor runs on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('judge each sampled conversation once between them, send each score once, and say what they left to the other', { timeout: 180_000 }, async () => {
    const suite = writeSuite(MONITORED_SUITE);
    const traces = productionTraces();
    const sampled = traces.filter((trace) => hashBucket('parley-monitor', String(trace.metadata!['conversation_id'])) < 500);
    expect(sampled.length).toBeGreaterThan(3);
    langfuse = await startFakeLangfuse({ publicKey: KEYS.LANGFUSE_PUBLIC_KEY, secretKey: KEYS.LANGFUSE_SECRET_KEY, scores: [], productionTraces: traces });
    // Every judge call is held until calls of both processes have arrived: each then holds a claimed
    // conversation while the other judges, so the runs overlap for certain (no timing involved).
    // Process A reaches fake-llm under /v1, process B without it: the path says which one called.
    const held: Array<() => void> = [];
    const callers = new Set<string>();
    let released = false;
    llm = await startFakeLlm({
      script: { defaults: { latency_ms: 1 }, rules: [{ reply: { content: JSON.stringify({ score: 4, reason: 'Clear.' }) } }] },
      onRequest: (entry) => {
        if (entry.api === 'control') return;
        callers.add(entry.path.startsWith('/v1/') ? 'A' : 'B');
      },
      wait: (_milliseconds, signal) => {
        if (released) return Promise.resolve();
        if (callers.size === 2) {
          released = true;
          for (const release of held.splice(0)) release();
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          held.push(resolve);
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
      },
    });
    const env = (baseUrl: string) => ({
      OPENAI_BASE_URL: baseUrl,
      OPENAI_API_KEY: 'sk-fake',
      LANGFUSE_HOST: langfuse!.url,
      ...KEYS,
      ...(database.url !== undefined ? { PARLEY_DATABASE_URL: database.url } : {}),
    });
    const args = ['monitor', '--from', 'langfuse', '--since', '6h'];
    const [text, json] = await Promise.all([
      parleyAsync(args, { cwd: suite, env: env(llm.openaiBaseUrl) }),
      parleyAsync([...args, '--format', 'json'], { cwd: suite, env: env(llm.url) }),
    ]);
    expect(text.status, text.stderr).toBe(0);
    expect(json.status, json.stderr).toBe(0);
    const second = JSON.parse(json.stdout) as { judged: Array<{ conversation: string }>; left_to_others: Array<{ conversation: string }>; already_judged: number };

    // One judge call per sampled conversation in all, and each process judged some of them.
    const calls = llm.requests.filter((request) => request.api !== 'control');
    expect(calls).toHaveLength(sampled.length);
    expect(new Set(calls.map((call) => (call.path.startsWith('/v1/') ? 'A' : 'B')))).toEqual(new Set(['A', 'B']));
    // Both planned every sampled conversation (neither had saved any yet) and judged those they claimed
    // first; each says how many it judged and how many it left to the other.
    const firstJudged = text.stdout.split('\n').filter((line) => /^ {2}judged {2}langfuse:\d+ {2}/.test(line)).map((line) => line.split(/ {2}/)[3]!);
    expect(text.stdout).toContain(`${sampled.length} of 250 logged conversations sampled in the window; 0 judged before`);
    expect(text.stdout).toContain(`judged ${firstJudged.length} conversation`);
    expect(text.stdout).toContain(`${second.judged.length} conversation${second.judged.length === 1 ? '' : 's'} left to another monitor run (it claimed them first)`);
    expect(second.already_judged).toBe(0);
    expect(firstJudged.length).toBeGreaterThan(0);
    expect(second.judged.length).toBeGreaterThan(0);
    expect(firstJudged.length + second.judged.length).toBe(sampled.length);
    expect(second.left_to_others.map((item) => item.conversation).sort()).toEqual([...firstJudged].sort());
    expect(new Set([...firstJudged, ...second.judged.map((item) => item.conversation)]).size).toBe(sampled.length);

    // Each score reached Langfuse once, on the trace its conversation came from.
    expect(langfuse.requests.filter((request) => request.path === '/api/public/scores')).toHaveLength(sampled.length);
    expect(langfuse.scores().map((score) => score.traceId).sort()).toEqual(sampled.map((trace) => trace.id).sort());

    // The text output says it too.
    const again = await parleyAsync(['monitor', '--from', 'langfuse', '--since', '6h'], { cwd: suite, env: env(llm.openaiBaseUrl) });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${sampled.length} judged before`);
    expect(llm.requests.filter((request) => request.api !== 'control')).toHaveLength(sampled.length);
  });
});
