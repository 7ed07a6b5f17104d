import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer, type FakeScript } from '@parley/fake-llm';
import { interruptOnHang, parleyAsync } from './test-support/parley-process.js';

/**
 * After `parley run --resume`, the judges' counters are those of the resumed part: the *Judge*
 * line and report.json's `judge` used to show them as the whole run's ("2 verdicts" for a run of 4
 * judged scenarios).
 */

const IDS = ['s1', 's2', 's3', 's4'];
const AGENT = { when: { model: 'gpt-4.1-mini' }, reply: { content: 'Karibu! Tuko wazi Jumamosi.', usage: { input_tokens: 100, output_tokens: 10 } } };
const JUDGE = {
  when: { model: 'claude-opus-4-7' },
  reply: { content: { message_scores: [{ message_index: 1, score: 90, reason: 'Clear.' }], overall_feedback: 'Good.' }, usage: { input_tokens: 500, output_tokens: 50 } },
};
/** Two scenarios are answered and judged; the third agent call hangs. */
const TWO_THEN_HANG: FakeScript = { rules: [{ ...AGENT, times: 2 }, JUDGE, { when: { model: 'gpt-4.1' }, reply: JUDGE.reply }, { when: { model: 'gpt-4.1-mini' }, fault: { kind: 'hang' } }] };
const CROSS_CHECK = { ...JUDGE, when: { model: 'gpt-4.1' } };
const ANSWER: FakeScript = { rules: [AGENT, JUDGE, CROSS_CHECK] };
let server: FakeLlmServer;
let cwd: string;

/** Runs the real binary; with `interrupt`, Ctrl-C once a call waits on the fake's hang. */
function parley(args: string[], interrupt = false) {
  const env = {
    OPENAI_API_KEY: 'sk-test-RESUMEJUDGE-0123456789',
    ANTHROPIC_API_KEY: 'sk-ant-test-RESUMEJUDGE-0123',
    OPENAI_BASE_URL: server.openaiBaseUrl,
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  };
  return parleyAsync(args, { cwd, env, ...(interrupt ? { onSpawn: interruptOnHang(server) } : {}) });
}

interface Report {
  run_id: string;
  results: unknown[];
  judge?: { verdicts: number; resumed_part?: boolean; cross_check?: { checked: string[]; kappa?: unknown } };
}

beforeAll(async () => {
  server = await startFakeLlm({ script: ANSWER });
  cwd = mkdtempSync(join(tmpdir(), 'parley-resume-judge-'));
  const suite = join(cwd, 'suite');
  mkdirSync(join(suite, 'scenarios'), { recursive: true });
  writeFileSync(
    join(suite, 'parley.yaml'),
    'suite: resume_judge\nagents:\n  booking: { kind: openai, model: gpt-4.1-mini }\njudge:\n  primary: { provider: anthropic, model: claude-opus-4-7 }\n  cross_check: { provider: openai, model: gpt-4.1, sample: 1 }\nsettings: { concurrency: 1, retries: { max: 0 } }\n',
  );
  for (const id of IDS) writeFileSync(join(suite, 'scenarios', `${id}.yaml`), `id: ${id}\nagent: booking\nuser: { opening: "Mko wazi Jumamosi?" }\nexpect:\n  - { metric: conversation_judge }\n`);
});

afterAll(async () => {
  await server?.close();
});

describe('the Judge line after --resume', () => {
  it('says its counts are of the resumed part, in the console, summary.md and report.json', { timeout: 120_000 }, async () => {
    server.setScript(TWO_THEN_HANG);
    const first = await parley(['run', 'suite', '--mode', 'live', '--out', 'out'], true);
    expect(first.status, first.stderr).toBe(130);
    const interrupted = JSON.parse(readFileSync(join(cwd, 'out', 'report.json'), 'utf8')) as Report;
    expect(interrupted.results).toHaveLength(2);
    expect(interrupted.judge?.verdicts).toBe(2);

    server.setScript(ANSWER);
    const resumed = await parley(['run', '--resume', interrupted.run_id]);
    expect(resumed.status, resumed.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(cwd, 'out', 'report.json'), 'utf8')) as Report;
    expect(report.results).toHaveLength(4);
    expect(report.judge).toMatchObject({ verdicts: 2, resumed_part: true });
    const line = 'Judge anthropic:claude-opus-4-7 (live) in this resumed part: 2 verdicts';
    expect(resumed.stdout + resumed.stderr).toContain(line);
    expect(readFileSync(join(cwd, 'out', 'summary.md'), 'utf8')).toContain(line);
    // The judges' agreement (kappa) is not measured on the resumed part's pairs alone, as on an interrupted run's.
    expect(report.judge?.cross_check?.checked).toEqual(['s3', 's4']);
    expect(report.judge?.cross_check).not.toHaveProperty('kappa');
  });

  it('a run that was not resumed measures the kappa on all its pairs', { timeout: 120_000 }, async () => {
    server.setScript(ANSWER);
    const whole = await parley(['run', 'suite', '--mode', 'live', '--out', 'whole', '--no-cache']);
    expect(whole.status, whole.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(cwd, 'whole', 'report.json'), 'utf8')) as Report;
    expect(report.judge?.cross_check?.checked).toEqual(IDS);
    expect(report.judge?.cross_check).toHaveProperty('kappa');
    expect(report.judge).not.toHaveProperty('resumed_part');
  });
});
