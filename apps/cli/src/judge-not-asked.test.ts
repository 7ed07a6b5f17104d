import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer, type FakeScript } from '@parley/fake-llm';
import { interruptOnHang, parleyAsync } from './test-support/parley-process.js';

/**
 * Judge calls the budget refused, or Ctrl-C cut short, were never answered: the *Judge* line and
 * report.json's `judge` used to count them as verdicts that "could not be evaluated".
 */

const AGENT = { when: { model: 'gpt-4.1-mini' }, reply: { content: 'Karibu! Tuko wazi Jumamosi.', usage: { input_tokens: 100, output_tokens: 10 } } };
const JUDGE_HANGS: FakeScript = { rules: [AGENT, { when: { model: 'claude-opus-4-7' }, fault: { kind: 'hang' } }] };
let server: FakeLlmServer;
let cwd: string;

interface Report {
  judge?: { verdicts: number; errors: number; not_asked?: { budget: number; interrupted: number } };
}

function parley(args: string[], interrupt = false) {
  const env = {
    OPENAI_API_KEY: 'sk-test-NOTASKED-0123456789',
    ANTHROPIC_API_KEY: 'sk-ant-test-NOTASKED-0123',
    OPENAI_BASE_URL: server.openaiBaseUrl,
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  };
  return parleyAsync(args, { cwd, env, ...(interrupt ? { onSpawn: interruptOnHang(server) } : {}) });
}

const report = (out: string): Report => JSON.parse(readFileSync(join(cwd, out, 'report.json'), 'utf8')) as Report;

beforeAll(async () => {
  server = await startFakeLlm({ script: JUDGE_HANGS });
  cwd = mkdtempSync(join(tmpdir(), 'parley-judge-not-asked-'));
  const suite = join(cwd, 'suite');
  mkdirSync(join(suite, 'scenarios'), { recursive: true });
  writeFileSync(
    join(suite, 'parley.yaml'),
    'suite: judge_not_asked\nagents:\n  booking: { kind: openai, model: gpt-4.1-mini }\njudge:\n  primary: { provider: anthropic, model: claude-opus-4-7 }\nsettings: { concurrency: 1, retries: { max: 0 } }\n',
  );
  for (const id of ['s1', 's2', 's3']) writeFileSync(join(suite, 'scenarios', `${id}.yaml`), `id: ${id}\nagent: booking\nuser: { opening: "Mko wazi Jumamosi?" }\nexpect:\n  - { metric: conversation_judge }\n`);
});

afterAll(async () => {
  await server?.close();
});

describe('judge calls never answered are not counted as errors', () => {
  it('says the budget refused them, in the Judge line, summary.md and report.json', { timeout: 120_000 }, async () => {
    // The agent's worst case (~$0.03) fits $0.05; a claude-opus-4-7 judge's (~$0.8 at 32,000 output tokens) does not.
    const run = await parley(['run', 'suite', '--mode', 'live', '--budget', '0.05', '--no-cache', '--out', 'budget']);
    expect(run.status, run.stderr).toBe(0);
    const line = 'Judge anthropic:claude-opus-4-7 (live): 0 verdicts, 3 not asked (the budget was reached)';
    expect(run.stdout + run.stderr).toContain(line);
    expect(run.stdout + run.stderr).not.toContain('could not be evaluated');
    expect(readFileSync(join(cwd, 'budget', 'summary.md'), 'utf8')).toContain(line);
    expect(report('budget').judge).toMatchObject({ verdicts: 0, errors: 0, not_asked: { budget: 3, interrupted: 0 } });
  });

  it('says Ctrl-C cut them short in an interrupted run', { timeout: 120_000 }, async () => {
    const run = await parley(['run', 'suite', '--mode', 'live', '--no-cache', '--concurrency', '3', '--out', 'interrupted'], true);
    expect(run.status, run.stderr).toBe(130);
    const judge = report('interrupted').judge;
    expect(judge).toMatchObject({ verdicts: 0, errors: 0 });
    expect(judge?.not_asked?.interrupted).toBeGreaterThan(0);
    expect(run.stdout + run.stderr).toContain(`0 verdicts, ${judge?.not_asked?.interrupted} cut short by the interruption`);
    expect(run.stdout + run.stderr).not.toContain('could not be evaluated');
  });
});
