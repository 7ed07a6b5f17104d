import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startFakeLangfuse, type FakeLangfuse } from '@parley/fake-langfuse';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './test-support/example-copy.js';
import { MONITORED_SUITE, writeMonitorLog } from './test-support/monitored-suite.js';
import { parleyAsync } from './test-support/parley-process.js';
import { until } from './test-support/until.js';
import { writeSuite } from './test-support/zuri-suite.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const ANSWER = { content: JSON.stringify({ score: 4, reason: 'Clear answer.' }), usage: { input_tokens: 1000, output_tokens: 40 } };
const KEYS = { LANGFUSE_PUBLIC_KEY: 'pk-lf-outbox', LANGFUSE_SECRET_KEY: 'sk-lf-outbox' };
const CONVERSATIONS = 280;
/** The judge answers this many calls, then hangs: more than the 250 monitor saves in one transaction. */
const ANSWERED = 260;
const CONCURRENCY = 4;

/** The fakes a test started, closed after it. */
const started: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});

async function fakes(): Promise<{ llm: FakeLlmServer; langfuse: FakeLangfuse }> {
  const llm = await startFakeLlm({ script: { rules: [{ times: ANSWERED, reply: ANSWER }, { fault: { kind: 'hang' } }] } });
  started.push(llm);
  const langfuse = await startFakeLangfuse({ publicKey: KEYS.LANGFUSE_PUBLIC_KEY, secretKey: KEYS.LANGFUSE_SECRET_KEY, scores: [] });
  started.push(langfuse);
  return { llm, langfuse };
}

async function savedConversations(suite: string): Promise<number> {
  const { openDatabase } = await import('@parley/store');
  const database = openDatabase(join(suite, '.parley', 'parley.db'));
  try {
    return database.prepare('SELECT COUNT(*) FROM monitor_conversations').pluck().get() as number;
  } finally {
    database.close();
  }
}

describe('parley monitor killed (SIGKILL) after it saved judged conversations: the outbox delivers their scores exactly once', () => {
  it('the killed run left its saved scores pending; --flush sends them, the next run judges only the rest and sends theirs', async () => {
    const suite = writeSuite({ ...MONITORED_SUITE, 'parley.yaml': `${MONITORED_SUITE['parley.yaml']!}settings: { concurrency: ${CONCURRENCY} }\n` });
    writeMonitorLog(suite, 'outbox-conv', CONVERSATIONS);
    const { llm, langfuse } = await fakes();
    const env = { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake-outbox', LANGFUSE_HOST: langfuse.url, ...KEYS };
    const args = ['monitor', '--logs', 'conversations.jsonl', '--sample', '100', '--format', 'json'];

    const child = spawn(process.execPath, [BIN, ...args], { cwd: suite, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, stdio: 'ignore' });
    const killed = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    const server = llm;
    // Every worker waits on a hung call: all 260 answers were handled, so the first 250 are saved.
    await until(() => server.requests.length >= ANSWERED + CONCURRENCY);
    expect(await savedConversations(suite)).toBe(250);
    child.kill('SIGKILL');
    expect(await killed).toBe('SIGKILL');
    const scorePosts = () => langfuse.requests.filter((request) => request.path === '/api/public/scores' && request.status === 200).length;
    // Scores are sent after judging: the killed run sent none of them.
    expect(scorePosts()).toBe(0);

    const flushed = await parleyAsync(['monitor', '--flush', '--format', 'json'], { cwd: suite, env });
    expect(flushed.status, flushed.stderr).toBe(0);
    expect(JSON.parse(flushed.stdout)).toMatchObject({ sent: 250, pending: 0, error: null });
    expect(scorePosts()).toBe(250);
    const again = await parleyAsync(['monitor', '--flush'], { cwd: suite, env });
    expect(again.stdout).toContain('sent 0 pending scores to Langfuse at');
    expect(scorePosts()).toBe(250);

    await fetch(`${server.url}/_fake/script`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules: [], fallback: ANSWER }) });
    const callsBefore = server.requests.length;
    const rest = await parleyAsync(args, { cwd: suite, env });
    expect(rest.status, rest.stderr).toBe(0);
    const outcome = JSON.parse(rest.stdout);
    expect(outcome).toMatchObject({ already_judged: 250, pushed_scores: CONVERSATIONS - 250, undelivered_scores: 0, delivery_error: null });
    expect(outcome.judged).toHaveLength(CONVERSATIONS - 250);
    // Only the conversations the killed run never got an answer for were asked of the judge (the
    // ten answered but not yet saved came from the verdict cache): one paid answer per conversation.
    expect(server.requests.length - callsBefore).toBe(CONVERSATIONS - ANSWERED);
    // Every score arrived, each exactly once.
    expect(scorePosts()).toBe(CONVERSATIONS);
    expect(new Set(langfuse.scores().map((score) => score.id)).size).toBe(CONVERSATIONS);
  }, 180_000);
});
