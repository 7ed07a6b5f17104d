import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashBucket } from '@parley/canary';
import { startFakeLangfuse, type FakeLangfuse } from '@parley/fake-langfuse';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { parleyAsync } from '../test-support/parley-process.js';
import { MONITORED_SUITE } from '../test-support/monitored-suite.js';
import { writeSuite } from '../test-support/zuri-suite.js';


const KEYS = { LANGFUSE_PUBLIC_KEY: 'pk-lf-monitor', LANGFUSE_SECRET_KEY: 'sk-lf-monitor' };

let llm: FakeLlmServer | undefined;
let langfuse: FakeLangfuse | undefined;
afterEach(async () => {
  await llm?.close();
  await langfuse?.close();
  llm = undefined;
  langfuse = undefined;
});

/**
 * 400 logged conversations that ended an hour ago; the first sampled one is of a restricted vertical.
 * No language: fluency metrics stay out, so one judge call answers one conversation.
 */
function writeLogs(dir: string): { file: string; sampled: string[]; restricted: string } {
  const ended = new Date(Date.now() - 3_600_000).toISOString();
  const ids = Array.from({ length: 400 }, (_, index) => `wa:2547221${String(index).padStart(5, '0')}:2026-11-27`);
  const sampled = ids.filter((id) => hashBucket('parley-monitor', id) < 500);
  const restricted = sampled[0]!;
  const lines = ids.map((id) =>
    JSON.stringify({
      conversation_id: id,
      tenant: 'zuri_spa',
      vertical: id === restricted ? 'dental' : 'salon',
      prompt_version: 'booking@abc1234',
      customer: { name: 'Grace Achieng' },
      turns: [
        { role: 'user', content: "Hi, it's Grace Achieng, a blow-dry on Thursday please.", timestamp: ended },
        { role: 'assistant', content: 'Karibu Grace Achieng! Thursday 15:00 is free: shall I book it?', timestamp: ended },
      ],
    }),
  );
  const file = join(dir, 'conversations.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, sampled, restricted };
}

/** A judge answering `score` to everything; 1,024 of each prompt's 1,500 input tokens come from OpenAI's prefix cache. */
function judgeAnswering(score: number): Promise<FakeLlmServer> {
  return startFakeLlm({
    script: {
      rules: [],
      fallback: { content: JSON.stringify({ score, reason: 'The customer, Grace Achieng, got a clear answer.' }), usage: { input_tokens: 1500, output_tokens: 40, cached_input_tokens: 1024 } },
    },
  });
}

describe('parley monitor (the binary, judge on fake-llm, scores to fake-langfuse)', () => {
  it('--dry-run picks the same hash sample twice; a real run judges it once, and the next run judges none', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    const logs = writeLogs(suite);
    llm = await judgeAnswering(4);
    langfuse = await startFakeLangfuse({ publicKey: KEYS.LANGFUSE_PUBLIC_KEY, secretKey: KEYS.LANGFUSE_SECRET_KEY, scores: [] });
    const env = { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake', LANGFUSE_HOST: langfuse.url, ...KEYS };
    const args = ['monitor', '--logs', 'conversations.jsonl', '--since', '6h'];

    const first = await parleyAsync([...args, '--dry-run'], { cwd: suite, env });
    const second = await parleyAsync([...args, '--dry-run'], { cwd: suite, env });
    expect(first.status, first.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const judgeable = logs.sampled.length - 1;
    expect(first.stdout).toContain(`${logs.sampled.length} of 400 logged conversations sampled in the window; 0 judged before`);
    expect(first.stdout).toMatch(new RegExp(`would judge ${judgeable} conversations · estimated \\$\\d+\\.\\d{4}`));
    expect(first.stdout).toContain('refused  conversations.jsonl:');
    expect(first.stdout).toContain('"dental" is a restricted vertical without redaction extras');
    // The ids are listed masked (they hold phone numbers), by their line in the log.
    const listed = first.stdout.split('\n').filter((line) => /^ {2}conversations\.jsonl:\d+ {2}/.test(line));
    expect(listed).toHaveLength(judgeable);
    expect(first.stdout).not.toContain('2547221');
    expect(llm.requests).toHaveLength(0);

    const real = await parleyAsync(args, { cwd: suite, env });
    expect(real.status, real.stderr).toBe(0);
    // gpt-4.1: $2 / $8 per million, cached input at 0.25×: each call saves 1,024 × 0.75 × $2 / 1e6.
    const spent = (judgeable * ((476 + 1024 * 0.25) * 2 + 40 * 8)) / 1e6;
    const saved = (judgeable * 1024 * 0.75 * 2) / 1e6;
    expect(real.stdout).toContain(`judged ${judgeable} conversations · $${spent.toFixed(4)} (${judgeable * 1024} input tokens from the prompt cache, saving $${saved.toFixed(4)})`);
    expect(real.stdout).toContain(`${judgeable} scores pushed to Langfuse`);
    expect(real.stdout).toMatch(new RegExp(`service_quality: 0\\.750 \\(n ${judgeable}\\) vs – before \\(n 0\\) · floor 0\\.60`));
    expect(llm.requests).toHaveLength(judgeable);
    // The judge saw masked conversations only.
    expect(JSON.stringify(llm.requests)).not.toContain('Grace Achieng');
    expect(langfuse.scores()).toHaveLength(judgeable);
    expect(langfuse.scores().every((score) => score.name === 'service_quality' && score.value === 0.75 && !String(score.comment).includes('Grace'))).toBe(true);

    const again = await parleyAsync(args, { cwd: suite, env });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${judgeable} judged before`);
    expect(again.stdout).toContain('judged 0 conversations');
    expect(llm.requests).toHaveLength(judgeable);
  });

  it('exits 1 with an alert when a metric\'s mean falls below its floor', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    writeLogs(suite);
    llm = await judgeAnswering(2);
    const run = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--sample', '2'], { cwd: suite, env: { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake' } });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/ALERT service_quality: mean 0\.250 over \d+ conversations is below its floor 0\.60/);
  });

  it('says why a metric could not be evaluated, masked, on the console and in --format json', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    writeLogs(suite);
    llm = await startFakeLlm({ script: { rules: [], fallback: { content: 'I will not rate Grace Achieng today.', usage: { input_tokens: 1500, output_tokens: 10 } } } });
    const env = { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake' };
    const run = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--sample', '2'], { cwd: suite, env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ {6}service_quality: service_quality could not be evaluated: .+$/m);
    expect(run.stdout).not.toMatch(/Grace|Achieng/);
    const json = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--sample', '2', '--salt', 'another', '--format', 'json'], { cwd: suite, env });
    const [judged] = JSON.parse(json.stdout).judged;
    expect(judged.scores[0]).toMatchObject({ metric: 'service_quality', error: true, reason: expect.stringContaining('could not be evaluated') });
  });

  it('keeps alerting, with the floor, on the next runs that judge nothing new, until the window recovers', async () => {
    const politeness = MONITORED_SUITE['metrics/service_quality.yaml']!.replace('name: service_quality', 'name: politeness');
    const suite = writeSuite({ ...MONITORED_SUITE, 'metrics/politeness.yaml': politeness });
    writeLogs(suite);
    llm = await judgeAnswering(2);
    const env = { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake' };
    const first = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--sample', '2', '--metric', 'politeness', '--format', 'json'], { cwd: suite, env });
    expect(first.status, first.stderr).toBe(1);
    const alerted = JSON.parse(first.stdout);
    expect(alerted.alerts.map((alert: string) => alert.split(':')[0])).toEqual(['politeness', 'service_quality']);
    // The next run judges nothing new (and is not asked for --metric again): the window is as bad as before.
    const second = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--sample', '2', '--format', 'json'], { cwd: suite, env });
    expect(second.status, second.stderr).toBe(1);
    const held = JSON.parse(second.stdout);
    expect(held.judged).toEqual([]);
    expect(held.windows.map((window: { metric: string; floor: number | null; below_floor: boolean }) => [window.metric, window.floor, window.below_floor])).toEqual([
      ['politeness', 0.7, true],
      ['service_quality', 0.6, true],
    ]);
    expect(held.alerts).toEqual(alerted.alerts);
  });

  it('exits 2 naming file and line for a log line that is not JSON', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    writeFileSync(join(suite, 'broken.jsonl'), '{"conversation_id": "a", "turns": []}\nnot json\n');
    const run = await parleyAsync(['monitor', '--logs', 'broken.jsonl', '--dry-run'], { cwd: suite });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('broken.jsonl:2:1: not valid JSON');
  });

  it('--dry-run shows control characters of logged ids as escapes, never raw', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    const ended = new Date(Date.now() - 3_600_000).toISOString();
    writeFileSync(join(suite, 'escape.jsonl'), `${JSON.stringify({ conversation_id: '\u001b]0;pwned\u0007\u001b[2Jconv', turns: [{ role: 'user', content: 'Hi', timestamp: ended }] })}\n`);
    const run = await parleyAsync(['monitor', '--logs', 'escape.jsonl', '--dry-run', '--sample', '100'], { cwd: suite });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('\\x1b]0;pwned\\x07\\x1b[2Jconv');
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('refuses an unknown --metric even when nothing is sampled', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    writeFileSync(join(suite, 'empty.jsonl'), '');
    for (const extra of [['--dry-run'], []]) {
      const run = await parleyAsync(['monitor', '--logs', 'empty.jsonl', '--metric', 'no_such_metric', ...extra], { cwd: suite });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('--metric no_such_metric: not a judge metric of this suite');
    }
  });

  it('judges a conversation logged five times once (one paid call), and leaves out conversations without timestamps under --since', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    const ended = new Date(Date.now() - 3_600_000).toISOString();
    const turn = (content: string) => ({ role: 'user', content, timestamp: ended });
    const lines = [1, 2, 3, 4, 5].map((n) => JSON.stringify({ conversation_id: 'logged-five-times', turns: Array.from({ length: n }, (_, index) => turn(`message ${index}`)) }));
    lines.push(JSON.stringify({ conversation_id: 'no-timestamps', turns: [{ role: 'user', content: 'Hi', ts: ended }] }));
    writeFileSync(join(suite, 'repeated.jsonl'), `${lines.join('\n')}\n`);
    llm = await judgeAnswering(4);
    const run = await parleyAsync(['monitor', '--logs', 'repeated.jsonl', '--sample', '100', '--format', 'json'], { cwd: suite, env: { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake' } });
    expect(run.status, run.stderr).toBe(0);
    const outcome = JSON.parse(run.stdout);
    expect(outcome.judged.map((item: { source: string }) => item.source)).toEqual(['repeated.jsonl:5']);
    expect(llm.requests).toHaveLength(1);
    expect(outcome.notes).toEqual(expect.arrayContaining([expect.stringContaining('1 sampled conversation without turn timestamps left out'), expect.stringContaining('4 lines repeating a sampled conversation_id')]));
  });

  it('refuses a FIFO or a folder as --logs at once (exit 2), without waiting for a writer', async () => {
    const suite = writeSuite(MONITORED_SUITE);
    execFileSync('mkfifo', [join(suite, 'pipe.jsonl')]);
    for (const [logs, kind] of [
      ['pipe.jsonl', 'a FIFO (named pipe)'],
      ['.', 'a folder'],
    ]) {
      const run = await parleyAsync(['monitor', '--logs', logs!, '--dry-run'], { cwd: suite });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`it is ${kind}, not a regular file`);
      expect(run.stderr).not.toContain('internal error');
    }
  });
});
