import { hashBucket } from '@parley/canary';
import { startFakeLangfuse, type FakeLangfuse, type FakeProductionTrace } from '@parley/fake-langfuse';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
// The store's driver helper is test support, not part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { storeDrivers, useStoreDriver } from '../../../../libs/store/src/test-support/each-driver.js';
import { MONITORED_SUITE } from '../test-support/monitored-suite.js';
import { parleyAsync } from '../test-support/parley-process.js';
import { silentServer } from '../test-support/silent-server.js';
import { writeSuite } from '../test-support/zuri-suite.js';

const KEYS = { LANGFUSE_PUBLIC_KEY: 'pk-lf-traces', LANGFUSE_SECRET_KEY: 'sk-lf-traces' };

let llm: FakeLlmServer | undefined;
let langfuse: FakeLangfuse | undefined;
afterEach(async () => {
  await llm?.close();
  await langfuse?.close();
  llm = undefined;
  langfuse = undefined;
});

/**
 * 300 production traces an agent's Langfuse SDK left: one per conversation, the conversation id
 * tenant and customer in the metadata, one generation whose input is the conversation so far and whose
 * output is the agent's last answer. 250 ended an hour ago, 50 ten hours ago (outside --since 6h).
 */
function productionTraces(): FakeProductionTrace[] {
  return Array.from({ length: 300 }, (_, index) => {
    const at = new Date(Date.now() - (index < 250 ? 1 : 10) * 3_600_000);
    const iso = (offset: number) => new Date(at.getTime() + offset).toISOString();
    return {
      id: `trace-${String(index).padStart(4, '0')}`,
      timestamp: iso(0),
      name: 'booking-turn',
      sessionId: `session-${index}`,
      metadata: { conversation_id: `wa:254722${String(index).padStart(6, '0')}`, tenant_id: 'zuri_spa', customer: { name: 'Grace Achieng' }, prompt_version: 'booking@v8', model: 'gpt-4.1-mini' },
      observations: [
        {
          id: `obs-${index}`,
          type: 'GENERATION',
          name: 'agent',
          model: 'gpt-4.1-mini',
          startTime: iso(1000),
          endTime: iso(2500),
          input: [
            { role: 'system', content: 'You are Ratiba.' },
            { role: 'user', content: "Hi, it's Grace Achieng, a blow-dry on Thursday please." },
          ],
          output: { role: 'assistant', content: 'Karibu Grace Achieng! Thursday 15:00 is free: shall I book it?' },
        },
      ],
    };
  });
}

describe('parley monitor --from langfuse (traces from fake-langfuse, judge on fake-llm)', () => {
  it('samples the window\'s traces by conversation id, judges them once, and scores the traces they came from', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    const traces = productionTraces();
    langfuse = await startFakeLangfuse({ ...{ publicKey: KEYS.LANGFUSE_PUBLIC_KEY, secretKey: KEYS.LANGFUSE_SECRET_KEY }, scores: [], productionTraces: traces });
    llm = await startFakeLlm({ script: { rules: [], fallback: { content: JSON.stringify({ score: 4, reason: 'Clear.' }) } } });
    const env = { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake', LANGFUSE_HOST: langfuse.url, ...KEYS };
    const inWindow = traces.slice(0, 250);
    const sampled = inWindow.filter((trace) => hashBucket('parley-monitor', String(trace.metadata!['conversation_id'])) < 500);
    expect(sampled.length).toBeGreaterThan(3);

    const args = ['monitor', '--from', 'langfuse', '--since', '6h'];
    const first = await parleyAsync([...args, '--dry-run'], { cwd: suite, env });
    const second = await parleyAsync([...args, '--dry-run'], { cwd: suite, env });
    expect(first.status, first.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(first.stdout).toContain(`${sampled.length} of 250 logged conversations sampled in the window; 0 judged before`);
    expect(first.stdout.split('\n').filter((line) => /^ {2}langfuse:\d+ {2}/.test(line))).toHaveLength(sampled.length);
    // Only the sampled traces were read one by one; the listing came in pages of 100.
    const single = langfuse.requests.filter((request) => request.path.startsWith('/api/public/traces/'));
    expect(single).toHaveLength(2 * sampled.length);
    expect(langfuse.requests.filter((request) => request.path === '/api/public/traces').every((request) => request.query['limit'] === '100')).toBe(true);
    expect(llm.requests).toHaveLength(0);

    const real = await parleyAsync([...args, '--format', 'json'], { cwd: suite, env });
    expect(real.status, real.stderr).toBe(0);
    const outcome = JSON.parse(real.stdout);
    expect(outcome).toMatchObject({ source: 'langfuse', total: 250, pushed_scores: sampled.length });
    expect(outcome.judged).toHaveLength(sampled.length);
    expect(llm.requests).toHaveLength(sampled.length);
    // Masked before the judge: the customer's name never reached it.
    expect(JSON.stringify(llm.requests)).not.toContain('Grace Achieng');
    expect(JSON.stringify(llm.requests)).toContain('Thursday 15:00 is free');
    // Scores go onto the trace the conversation came from.
    expect(langfuse.scores().map((score) => score.traceId).sort()).toEqual(sampled.map((trace) => trace.id).sort());

    const again = await parleyAsync(args, { cwd: suite, env });
    expect(again.stdout).toContain(`${sampled.length} judged before`);
    expect(again.stdout).toContain('judged 0 conversations');
    expect(llm.requests).toHaveLength(sampled.length);
  });

  it('exits 2 when Langfuse refuses the keys, naming the variables and never their values', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    langfuse = await startFakeLangfuse({ publicKey: KEYS.LANGFUSE_PUBLIC_KEY, secretKey: KEYS.LANGFUSE_SECRET_KEY, scores: [], productionTraces: [] });
    const run = await parleyAsync(['monitor', '--from', 'langfuse', '--dry-run'], { cwd: suite, env: { LANGFUSE_HOST: langfuse.url, LANGFUSE_PUBLIC_KEY: 'pk-lf-wrong', LANGFUSE_SECRET_KEY: 'sk-lf-wrong-secret' } });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/refused the keys \(HTTP 401\): check LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY/);
    expect(run.stderr + run.stdout).not.toContain('sk-lf-wrong-secret');
    const none = await parleyAsync(['monitor', '--dry-run'], { cwd: suite });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('parley monitor reads conversations from --logs FILE or --from langfuse');
  });

  it('rides out a briefly overloaded Langfuse (429 with Retry-After, then 503) with the one client\'s retries, and names the timeout of a hung one', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    langfuse = await startFakeLangfuse({
      publicKey: KEYS.LANGFUSE_PUBLIC_KEY,
      secretKey: KEYS.LANGFUSE_SECRET_KEY,
      scores: [],
      productionTraces: productionTraces().slice(0, 20),
      faults: [
        { path: '/api/public/traces', status: 429, times: 1, retryAfter: '1' },
        { path: '/api/public/traces', status: 503, times: 1 },
      ],
    });
    const env = { LANGFUSE_HOST: langfuse.url, ...KEYS };
    const run = await parleyAsync(['monitor', '--from', 'langfuse', '--since', '6h', '--dry-run'], { cwd: suite, env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('of 20 logged conversations sampled in the window');
    expect(langfuse.requests.filter((request) => request.path === '/api/public/traces').map((request) => request.status)).toEqual([429, 503, 200]);
    // The short form, --langfuse, is the same source.
    const specForm = await parleyAsync(['monitor', '--langfuse', '--since', '6h', '--dry-run'], { cwd: suite, env });
    expect(specForm.status, specForm.stderr).toBe(0);
    expect(specForm.stdout).toBe(run.stdout);

    // A Langfuse that takes the connection and never answers: the connect timeout fires, named, on every attempt.
    const hung = await silentServer();
    try {
      const url = hung.url;
      const stuck = await parleyAsync(['monitor', '--from', 'langfuse', '--dry-run'], {
        cwd: suite,
        env: { ...KEYS, LANGFUSE_HOST: url, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS: '200', PARLEY_LANGFUSE_TIMEOUT_MS: '1500' },
      });
      expect(stuck.status).toBe(2);
      expect(stuck.stderr).toMatch(/did (not answer GET \/api\/public\/traces within 200 ms \(the connect timeout, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS\)|not finish GET \/api\/public\/traces within 1500 ms \(the total timeout, PARLEY_LANGFUSE_TIMEOUT_MS\))/);
    } finally {
      await hung.close();
    }
  });
});

describe.each(storeDrivers)('two overlapping parley monitor runs on %s', (driver) => {
  const database = useStoreDriver(driver);

  it('judge each sampled conversation once between them, send each score once, and say what they left to the other', { timeout: 180_000 }, async () => {
    const suite = writeSuite(MONITORED_SUITE);
    const traces = productionTraces();
    const sampled = traces.slice(0, 250).filter((trace) => hashBucket('parley-monitor', String(trace.metadata!['conversation_id'])) < 500);
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
