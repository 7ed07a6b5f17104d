import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer, type FakeScript } from '@parley/fake-llm';
import { interruptOnHang, parleyAsync } from './test-support/parley-process.js';

/**
 * `parley run --resume RUN_ID` (the next step an interrupted run prints) finishes the run with the
 * interrupted run's own gate: its baseline, shard and repeats. It used to drop them, so a shard
 * resumed in CI ran the whole suite, and a run gated on a baseline was finished ungated (exit 0).
 */

const IDS = ['s1', 's2', 's3', 's4', 's5', 's6'];
const ANSWER: FakeScript = { rules: [{ reply: { content: 'Karibu!', usage: { input_tokens: 100, output_tokens: 10 } } }] };
const HANG: FakeScript = { rules: [{ fault: { kind: 'hang' } }] };
let server: FakeLlmServer;
let cwd: string;

/** Runs the real binary; with `interrupt`, Ctrl-C once a call waits on the fake's hang. */
function parley(args: string[], interrupt = false) {
  const env = { OPENAI_API_KEY: 'sk-test-RESUME-0123456789', OPENAI_BASE_URL: server.openaiBaseUrl };
  return parleyAsync(args, { cwd, env, ...(interrupt ? { onSpawn: interruptOnHang(server) } : {}) });
}

interface Report {
  run_id: string;
  status: string;
  exit_code: number;
  repeat?: number;
  baseline?: { file: string };
  results: Array<{ scenario_id: string; status: string; attempts?: unknown[] }>;
}

beforeAll(async () => {
  server = await startFakeLlm({ script: ANSWER });
  cwd = mkdtempSync(join(tmpdir(), 'parley-resume-gate-'));
  const suite = join(cwd, 'suite');
  mkdirSync(join(suite, 'scenarios'), { recursive: true });
  writeFileSync(join(suite, 'parley.yaml'), 'suite: resume_gate\nagents:\n  booking: { kind: openai, model: gpt-4.1-mini }\nsettings: { concurrency: 1 }\n');
  // tool_correctness with no expected call scores 1 when the agent calls no tool: a scored metric,
  // so the baseline gates it.
  for (const id of IDS) writeFileSync(join(suite, 'scenarios', `${id}.yaml`), `id: ${id}\nagent: booking\nuser: { opening: "Habari" }\nexpect:\n  - { metric: tool_correctness, expected: [] }\n`);
});

afterAll(async () => {
  await server?.close();
});

describe('--resume of an interrupted run', () => {
  it("keeps the run's --baseline, --shard and --repeat", async () => {
    const listed = await parley(['run', 'suite', '--shard', '1/2', '--list']);
    expect(listed.status, listed.stderr).toBe(0);
    const shardIds = listed.stdout.trim().split('\n').sort();
    expect(shardIds.length).toBeGreaterThan(0);
    expect(shardIds.length).toBeLessThan(IDS.length);

    // The baseline of this suite and configuration, with no entry left: every gated scenario is
    // `warn` ("no baseline entry"), where a run without the baseline passes.
    const exported = await parley(['run', 'suite', '--mode', 'live', '--out', 'main', '--export-baseline', 'base.json']);
    expect(exported.status, exported.stderr).toBe(0);
    const baseline = JSON.parse(readFileSync(join(cwd, 'base.json'), 'utf8')) as { entries: unknown[] };
    expect(baseline.entries).toHaveLength(IDS.length);
    writeFileSync(join(cwd, 'base.json'), JSON.stringify({ ...baseline, entries: [] }, null, 2));

    server.setScript(HANG);
    const first = await parley(['run', 'suite', '--mode', 'live', '--out', 'shard-1', '--baseline', 'base.json', '--shard', '1/2', '--repeat', '2'], true);
    expect(first.status, first.stderr).toBe(130);
    const interrupted = JSON.parse(readFileSync(join(cwd, 'shard-1', 'report.json'), 'utf8')) as Report;
    expect(interrupted.status).toBe('interrupted');
    expect(first.stdout).toContain(`finish it with: parley run --resume ${interrupted.run_id}`);

    server.setScript(ANSWER);
    const resumed = await parley(['run', '--resume', interrupted.run_id]);
    expect(resumed.status, resumed.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(cwd, 'shard-1', 'report.json'), 'utf8')) as Report;
    expect(report.results.map((result) => result.scenario_id).sort()).toEqual(shardIds);
    expect(report.baseline?.file).toBe('base.json');
    expect(report.results.map((result) => result.status)).toEqual(shardIds.map(() => 'warn'));
    expect(report.repeat).toBe(2);
    expect(report.results.every((result) => result.attempts?.length === 2)).toBe(true);
  });
});
