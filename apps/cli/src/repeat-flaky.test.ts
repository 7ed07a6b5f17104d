import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copySuite, parleyIn, recordedGateSuite } from './test-support/gate-suite.js';

interface ReportJson {
  exit_code: number;
  status: string;
  repeat?: number;
  results: Array<{
    scenario_id: string;
    status: string;
    reason: string;
    metrics: Array<{ metric: string; score: number | null; details?: Record<string, unknown> }>;
    attempts?: Array<{ attempt: number; status: string; reason: string; transcript?: { turns: Array<{ role: string; content: string }> } }>;
  }>;
}

let recorded: string;
beforeAll(async () => {
  // Recorded with --repeat 3: greeting's recording holds "Karibu!", "Hi.", "Karibu sana!" for one request.
  recorded = await recordedGateSuite({ repeat: 3 });
});

function report(suite: string, out: string): ReportJson {
  return JSON.parse(readFileSync(join(suite, out, 'report.json'), 'utf8')) as ReportJson;
}

describe('--repeat N', () => {
  it('records every attempt into the one recording, in order', () => {
    const lines = readFileSync(join(recorded, 'recordings', 'greeting.jsonl'), 'utf8').trim().split('\n');
    const answers = lines.map((line) => (JSON.parse(line) as { response: { content: string } }).response.content);
    expect(answers).toEqual(['Karibu!', 'Hi.', 'Karibu sana!']);
  });

  it('a scripted agent that passes 2 of 3 times is flaky: exit 0, and exit 1 with --strict', async () => {
    const suite = copySuite(recorded);
    const run = await parleyIn(suite, ['run', '.', '--repeat', '3', '--scenario', 'greeting', '--out', 'flaky']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/greeting\s+│[^\n]*flaky[^\n]*2 of 3 attempts passed; attempt 2 failed/);
    expect(run.stdout).toContain('each scenario ran 3 times: 1 flaky');
    const greeting = report(suite, 'flaky').results[0]!;
    expect(greeting.status).toBe('flaky');
    expect(greeting.reason).toBe('2 of 3 attempts passed; attempt 2 failed: content_signals: required "Karibu" missing from the assistant messages');
    expect(greeting.attempts!.map((attempt) => [attempt.attempt, attempt.status])).toEqual([
      [1, 'pass'],
      [2, 'fail'],
      [3, 'pass'],
    ]);
    expect(greeting.attempts!.map((attempt) => attempt.transcript!.turns.at(-1)!.content)).toEqual(['Karibu!', 'Hi.', 'Karibu sana!']);
    expect(report(suite, 'flaky')).toMatchObject({ repeat: 3, status: 'flaky', exit_code: 0 });

    const strict = await parleyIn(suite, ['run', '.', '--repeat', '3', '--scenario', 'greeting', '--strict', '--out', 'strict']);
    expect(strict.code).toBe(1);
    expect(readFileSync(join(suite, 'strict', 'junit.xml'), 'utf8')).toMatch(/<testcase [^>]*name="greeting"[\s\S]*?<failure message="2 of 3 attempts passed[^"]*" type="flaky"/);
  });

  it('keeps every attempt in the store and the combined result as attempt 0', async () => {
    const suite = copySuite(recorded);
    await parleyIn(suite, ['run', '.', '--repeat', '3', '--scenario', 'greeting', '--out', 'stored']);
    const runId = JSON.parse(readFileSync(join(suite, 'stored', 'report.json'), 'utf8')).run_id as string;
    const { openStore } = await import('@parley/store');
    const store = openStore(join(suite, '.parley', 'parley.db'));
    try {
      expect(store.getScenarioResults(runId).map((result) => result.status)).toEqual(['flaky']);
      expect(store.getScenarioAttempts(runId, 'greeting').map((attempt) => [attempt.attempt, attempt.result.status])).toEqual([
        [1, 'pass'],
        [2, 'fail'],
        [3, 'pass'],
      ]);
    } finally {
      store.close();
    }
  });

  it('the baseline of a repeated run stores the mean with its attempts', async () => {
    const suite = copySuite(recorded);
    const run = await parleyIn(suite, ['run', '.', '--repeat', '3', '--export-baseline', 'baseline.json', '--out', 'export']);
    expect(run.code).toBe(0);
    const baseline = JSON.parse(readFileSync(join(suite, 'baseline.json'), 'utf8')) as { entries: Array<{ test_id: string; score: number; meta: Record<string, unknown> }> };
    expect(baseline.entries.find((entry) => entry.test_id === 'q_1')).toEqual({
      test_id: 'q_1',
      metric: 'tool_correctness',
      score: 0.85,
      meta: { metric_version: '1.0.0', attempts: 3, attempt_scores: [0.85, 0.85, 0.85] },
    });
  });

  it('replays a one-attempt recording N times as N identical attempts, not as misses', async () => {
    const single = await recordedGateSuite();
    const run = await parleyIn(single, ['run', '.', '--repeat', '3', '--scenario', 'q_*', '--out', 'repeat']);
    expect(run.code).toBe(0);
    const results = report(single, 'repeat').results;
    expect(results.map((result) => [result.scenario_id, result.status, result.reason])).toEqual([
      ['q_1', 'pass', '3 of 3 attempts passed'],
      ['q_2', 'pass', '3 of 3 attempts passed'],
    ]);
  });

  it('refuses a repeat count that is not a positive integer', async () => {
    const run = await parleyIn(copySuite(recorded), ['run', '.', '--repeat', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--repeat must be a positive integer, got "0"');
  });
});
