import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { parleyAsync } from './test-support/parley-process.js';

/**
 * A run its budget stopped finished, so `--resume` refuses it, and `--last-failed` does not select
 * the scenarios the budget left out (they are `warn` or `skipped`): the budget line, report.json
 * and the refusal name the command that runs them.
 */

let server: FakeLlmServer;
let cwd: string;

function parley(args: string[]) {
  const env = { OPENAI_API_KEY: 'sk-test-RERUN-0123456789', OPENAI_BASE_URL: server.openaiBaseUrl };
  return parleyAsync(args, { cwd, env });
}

beforeAll(async () => {
  // Each answer costs $0.01 (gpt-4.1-mini: $0.40 per million input tokens); the agent sets max_tokens 10, so its worst case fits.
  server = await startFakeLlm({ script: { rules: [{ when: { model: 'gpt-4.1-mini' }, reply: { content: 'Karibu!', usage: { input_tokens: 25_000, output_tokens: 1 } } }] } });
  cwd = mkdtempSync(join(tmpdir(), 'parley-budget-rerun-'));
  mkdirSync(join(cwd, 'suite', 'scenarios'), { recursive: true });
  writeFileSync(join(cwd, 'suite', 'parley.yaml'), 'suite: budget_rerun\nagents:\n  booking: { kind: openai, model: gpt-4.1-mini, max_tokens: 10 }\nsettings: { concurrency: 1, retries: { max: 0 } }\n');
  for (const id of ['s1', 's2', 's3', 's4']) {
    writeFileSync(join(cwd, 'suite', 'scenarios', `${id}.yaml`), `id: ${id}\nagent: booking\nuser: { opening: "Habari?" }\nexpect:\n  - { metric: content_signals, required: ["Karibu"] }\n`);
  }
});

afterAll(async () => {
  await server?.close();
});

describe('after a run stopped by its budget', () => {
  it('names the command that runs what the budget left out, and that command selects exactly those scenarios', { timeout: 120_000 }, async () => {
    const run = await parley(['run', 'suite', '--mode', 'live', '--budget', '0.025', '--out', 'out']);
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(cwd, 'out', 'report.json'), 'utf8')) as { run_id: string; budget: { rerun?: string }; results: Array<{ scenario_id: string; status: string }> };
    const leftOut = report.results.filter((result) => result.status !== 'pass').map((result) => result.scenario_id);
    expect(leftOut).toEqual(['s3', 's4']); // $0.02 spent, and the next $0.01 estimate does not fit
    const command = `parley run suite --mode live --budget 0.025 ${leftOut.map((id) => `--scenario ${id}`).join(' ')}`;
    expect(report.budget.rerun).toBe(command);
    expect(run.stdout).toContain(`; to run what it left out: ${command}`);
    expect(readFileSync(join(cwd, 'out', 'summary.md'), 'utf8')).toContain(`To run what it left out: \`${command}\``);

    const resume = await parley(['run', '--resume', report.run_id]);
    expect(resume.status).toBe(2);
    expect(resume.stderr).toContain(`only an interrupted run can be resumed; to run the scenarios its budget left out: ${command}`);

    const listed = await parley([...command.split(' ').slice(1), '--list']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split('\n')).toEqual(leftOut);
  });
});
