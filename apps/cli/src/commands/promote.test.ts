import type { ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLangfuse, type FakeLangfuse } from '@parley/fake-langfuse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parleyAsync } from '../test-support/parley-process.js';
import { silentServer } from '../test-support/silent-server.js';
import { until } from '../test-support/until.js';
import { writeSuite, ZURI_SUITE } from '../test-support/zuri-suite.js';

/*
 * A production conversation with the Zuri booking agent. The turns are adapted from dialogue
 * 29_00055 of the Schema-Guided Dialogue dataset (Rastogi et al., 2020), CC BY-SA 4.0; this file
 * is shared under the same license. Changed: a Nairobi salon, a Kenyan name and number, tools.
 */
const SALON = {
  conversation_id: 'wa:254722118904:2026-11-27',
  tenant: 'zuri_spa',
  vertical: 'salon',
  language: 'en',
  customer: { name: 'Grace Achieng' },
  turns: [
    { role: 'user', content: "Hi, I'd like a blow-dry on Thursday afternoon. It's Grace Achieng, 0722 118 904.", timestamp: '2026-11-27T09:00:00Z' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'c1', name: 'check_availability', args: { service: 'hair_blowdry', date: '2026-12-03', time_preference: 'afternoon' } }],
      timestamp: '2026-11-27T09:00:02Z',
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"slots":["14:00","15:00"],"price_kes":1200}', timestamp: '2026-11-27T09:00:02Z' },
    { role: 'assistant', content: 'Habari Grace! We have 14:00 or 15:00 on Thursday.', timestamp: '2026-11-27T09:00:04Z' },
    { role: 'user', content: '15:00 please. How much is it?', timestamp: '2026-11-27T09:01:00Z' },
    { role: 'assistant', content: 'Done, you are booked for 15:00 on Thursday!', timestamp: '2026-11-27T09:01:03Z' },
  ],
};

/** A dentist visit (adapted from SGD dialogue 28_00105, CC BY-SA 4.0): a restricted vertical. */
const DENTIST = {
  conversation_id: 'wa:254700111222:2026-11-29',
  vertical: 'dental',
  turns: [
    { role: 'user', content: 'My teeth hurt. Get me a dentist.', timestamp: '2026-11-29T08:00:00Z' },
    { role: 'assistant', content: 'I suggest Amazing Smile Dental in Westlands.', timestamp: '2026-11-29T08:00:02Z' },
  ],
};

const LANGFUSE_KEYS = { LANGFUSE_PUBLIC_KEY: 'pk-lf-test-CLI-1111', LANGFUSE_SECRET_KEY: 'sk-lf-test-CLI-SECRET-2222' };
const PERSONAL = ['Grace', 'Achieng', '722 118 904', '254722118904'];

function lines(values: unknown[]): string {
  return values.map((value) => `${JSON.stringify(value)}\n`).join('');
}

/** Every file under a folder, relative, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

let langfuse: FakeLangfuse;
beforeAll(async () => {
  langfuse = await startFakeLangfuse({
    publicKey: LANGFUSE_KEYS.LANGFUSE_PUBLIC_KEY,
    secretKey: LANGFUSE_KEYS.LANGFUSE_SECRET_KEY,
    scores: [
      { id: 'score-1', name: 'user_feedback', dataType: 'CATEGORICAL', value: '👎', timestamp: '2026-11-27T09:05:00Z', traceId: SALON.conversation_id, comment: 'It never told me the price' },
    ],
  });
});
afterAll(async () => {
  await langfuse?.close();
});

describe('parley promote (the binary)', () => {
  it('promotes a 👎 conversation into a masked scenario that validates and replays offline, and never overwrites it', async () => {
    const suite = writeSuite(ZURI_SUITE);
    const work = mkdtempSync(join(tmpdir(), 'parley-promote-cli-'));
    writeFileSync(join(work, 'logs.jsonl'), lines([SALON]));
    writeFileSync(join(work, 'feedback.jsonl'), lines([{ conversation_id: SALON.conversation_id, user_feedback: '👎', comment: 'It never told me the price, call 0722 118 904' }]));

    const promote = await parleyAsync(['promote', '--logs', 'logs.jsonl', '--feedback', 'feedback.jsonl', '--suite', suite], { cwd: work });
    expect(promote.status, promote.stderr).toBe(0);
    expect(promote.stdout).toMatch(/^promoted 1 conversation into .*scenarios\/from_production \(gate: advisory until reviewed\):/);
    expect(promote.stdout).toContain('logs.jsonl:1');
    const promoted = filesUnder(join(suite, 'scenarios/from_production'));
    expect(promoted).toHaveLength(1);
    const id = promoted[0]!.replace('.yaml', '');
    const scenarioText = readFileSync(join(suite, 'scenarios/from_production', promoted[0]!), 'utf8');
    const recordingText = readFileSync(join(suite, 'recordings', `${id}.jsonl`), 'utf8');
    for (const text of PERSONAL) {
      for (const [name, content] of [['stdout', promote.stdout], ['scenario', scenarioText], ['recording', recordingText]]) {
        expect(content, `${name} ${text}`).not.toContain(text);
      }
    }

    const validate = await parleyAsync(['validate', suite], { cwd: work });
    expect(validate.status, validate.stderr).toBe(0);
    expect(validate.stdout).toMatch(/valid: suite zuri_booking · 2 scenarios/);

    const run = await parleyAsync(['run', suite, '--tag', 'from_production', '--out', 'out'], { cwd: work });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(work, 'out', 'report.json'), 'utf8')) as {
      mode: string;
      results: Array<{ scenario_id: string; status: string; gate: string; transcript: { turns: Array<{ role: string; content: string }> } }>;
    };
    expect(report.mode).toBe('replay');
    expect(report.results.map((result) => [result.scenario_id, result.status, result.gate])).toEqual([[id, 'pass', 'advisory']]);
    const replies = report.results[0]!.transcript.turns.filter((turn) => turn.role === 'assistant' && turn.content !== '').map((turn) => turn.content);
    expect(replies).toEqual(['Habari <name>! We have 14:00 or 15:00 on Thursday.', 'Done, you are booked for 15:00 on Thursday!']);

    writeFileSync(join(suite, 'scenarios/from_production', promoted[0]!), `# reviewed\n${scenarioText}`);
    const again = await parleyAsync(['promote', '--logs', 'logs.jsonl', '--feedback', 'feedback.jsonl', '--suite', suite], { cwd: work });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(`already promoted: scenarios/from_production/${id}.yaml exists`);
    expect(readFileSync(join(suite, 'scenarios/from_production', promoted[0]!), 'utf8')).toBe(`# reviewed\n${scenarioText}`);
  });

  it('refuses a restricted-vertical conversation with exit 2, and no file appears', async () => {
    const suite = writeSuite(ZURI_SUITE);
    appendFileSync(join(suite, 'parley.yaml'), '\nredaction:\n  restricted_verticals: [dental, medical]\n');
    const work = mkdtempSync(join(tmpdir(), 'parley-promote-cli-'));
    writeFileSync(join(work, 'logs.jsonl'), lines([SALON, DENTIST]));
    writeFileSync(
      join(work, 'feedback.jsonl'),
      lines([
        { conversation_id: SALON.conversation_id, user_feedback: -1 },
        { conversation_id: DENTIST.conversation_id, user_feedback: '👎' },
      ]),
    );
    const suiteBefore = filesUnder(suite);
    const workBefore = filesUnder(work);

    const refused = await parleyAsync(['promote', '--logs', 'logs.jsonl', '--feedback', 'feedback.jsonl', '--suite', suite], { cwd: work });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      'error: logs.jsonl:2:1: conversation wa:2547*****222:2026-11-29: "dental" is a restricted vertical without redaction extras: add redaction.extras.dental to parley.yaml; nothing was promoted',
    );
    expect(refused.stdout).toBe('');
    expect(filesUnder(suite)).toEqual(suiteBefore);
    expect(filesUnder(work)).toEqual(workBefore);
    expect(existsSync(join(suite, 'scenarios/from_production'))).toBe(false);
  });

  it('reads user_feedback from a self-hosted Langfuse, and never prints its keys', async () => {
    const suite = writeSuite(ZURI_SUITE);
    const work = mkdtempSync(join(tmpdir(), 'parley-promote-cli-'));
    writeFileSync(join(work, 'logs.jsonl'), lines([SALON]));

    const promote = await parleyAsync(['promote', '--logs', 'logs.jsonl', '--langfuse', langfuse.url, '--suite', suite, '--since', '2026-11-01'], {
      cwd: work,
      env: LANGFUSE_KEYS,
    });
    expect(promote.status, promote.stderr).toBe(0);
    expect(promote.stdout).toContain('Production conversation rated 👎: "It never told me the price"');
    expect(langfuse.requests.at(-1)).toMatchObject({ path: '/api/public/v3/scores', authorised: true, status: 200 });
    expect(langfuse.requests.at(-1)?.query['fromTimestamp']).toBe('2026-11-01T00:00:00.000Z');

    const refused = await parleyAsync(['promote', '--logs', 'logs.jsonl', '--langfuse', langfuse.url, '--suite', suite], {
      cwd: work,
      env: { ...LANGFUSE_KEYS, LANGFUSE_SECRET_KEY: 'sk-lf-test-WRONG-3333' },
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('refused the keys (HTTP 401): check LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY');
    for (const output of [promote.stdout, promote.stderr, refused.stdout, refused.stderr]) {
      expect(output).not.toMatch(/sk-lf-test|pk-lf-test/);
    }
  });

  it('ends, naming the timeout, when the Langfuse holding the feedback takes the connection and never answers', async () => {
    const suite = writeSuite(ZURI_SUITE);
    const work = mkdtempSync(join(tmpdir(), 'parley-promote-cli-'));
    writeFileSync(join(work, 'logs.jsonl'), lines([SALON]));
    const hung = await silentServer();
    try {
      const env = { ...LANGFUSE_KEYS, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS: '200', PARLEY_LANGFUSE_TIMEOUT_MS: '1500' };
      const promote = await parleyAsync(['promote', '--logs', 'logs.jsonl', '--langfuse', hung.url, '--suite', suite], { cwd: work, env });
      expect(promote.status, promote.stderr).not.toBe(0);
      expect(promote.stderr).toMatch(/within 200 ms \(the connect timeout, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS\)|within 1500 ms \(the total timeout, PARLEY_LANGFUSE_TIMEOUT_MS\)/);
      expect(promote.stderr).not.toMatch(/internal error|sk-lf-test|pk-lf-test/);
      expect(existsSync(join(suite, 'scenarios/from_production'))).toBe(false); // nothing promoted
    } finally {
      await hung.close();
    }
  });

  it('Ctrl-C while the Langfuse holding the feedback does not answer: exit 130 at once, nothing promoted (was: retried to the timeout, exit 2)', async () => {
    const suite = writeSuite(ZURI_SUITE);
    const work = mkdtempSync(join(tmpdir(), 'parley-promote-cli-'));
    writeFileSync(join(work, 'logs.jsonl'), lines([SALON]));
    const hung = await silentServer();
    try {
      // Timeouts far beyond the test's own: only the signal can end the command.
      const env = { ...LANGFUSE_KEYS, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS: '600000', PARLEY_LANGFUSE_TIMEOUT_MS: '600000' };
      const onSpawn = (child: ChildProcess) => void until(() => hung.connections() > 0).then(() => child.kill('SIGINT'));
      const promote = await parleyAsync(['promote', '--logs', 'logs.jsonl', '--langfuse', hung.url, '--suite', suite], { cwd: work, env, onSpawn });
      expect(promote.status, promote.stderr).toBe(130);
      expect(promote.stderr).toContain('interrupted (SIGINT) while reading the feedback from Langfuse: nothing was promoted');
      expect(promote.stderr).not.toMatch(/internal error|sk-lf-test|pk-lf-test/);
      expect(existsSync(join(suite, 'scenarios/from_production'))).toBe(false);
    } finally {
      await hung.close();
    }
  });

  it('refuses bad input with exit 2: no feedback source, a bad --since, a broken log line', async () => {
    const work = mkdtempSync(join(tmpdir(), 'parley-promote-cli-'));
    const suite = writeSuite(ZURI_SUITE);
    writeFileSync(join(work, 'logs.jsonl'), `${JSON.stringify(SALON)}\n{"conversation_id": 7}\n`);
    writeFileSync(join(work, 'feedback.jsonl'), lines([{ conversation_id: SALON.conversation_id, user_feedback: -1 }]));
    const noFeedback = await parleyAsync(['promote', '--logs', 'logs.jsonl', '--suite', suite], { cwd: work });
    expect([noFeedback.status, noFeedback.stderr.trim()]).toEqual([2, 'error: parley promote needs feedback: --feedback FILE and/or --langfuse [URL]']);
    const badSince = await parleyAsync(['promote', '--logs', 'logs.jsonl', '--feedback', 'feedback.jsonl', '--since', 'lately', '--suite', suite], { cwd: work });
    expect(badSince.status).toBe(2);
    expect(badSince.stderr).toContain('--since takes a duration such as 7d');
    const badLine = await parleyAsync(['promote', '--logs', 'logs.jsonl', '--feedback', 'feedback.jsonl', '--suite', suite], { cwd: work });
    expect(badLine.status).toBe(2);
    expect(badLine.stderr).toMatch(/error: logs\.jsonl:2:1: not a conversation log entry: conversation_id: /);
    expect(existsSync(join(suite, 'scenarios/from_production'))).toBe(false);
  });
});
