import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ScenarioResult, Status } from '@parley/core';
import { openStore } from '@parley/store';

/** Two prompt agents and two services; `desk_cli` has no scenario, `concierge` never ran. */
export const MIXED_SUITE: Record<string, string> = {
  'parley.yaml': `suite: front_desk
agents:
  booking: { kind: openai, model: gpt-4.1-mini }
  concierge: { kind: anthropic, model: claude-haiku-4-5 }
  desk_http: { kind: http, url: "http://127.0.0.1:9/chat" }
  desk_cli: { kind: command, command: ["node", "agent.mjs"] }
`,
  'scenarios/book_a.yaml': 'id: book_a\nagent: booking\ntags: [booking, happy-path]\nuser: { opening: "Hi" }\n',
  'scenarios/book_b.yaml': 'id: book_b\nagent: booking\ntags: [booking]\nuser: { opening: "Hi" }\n',
  'scenarios/concierge_a.yaml': 'id: concierge_a\nagent: concierge\ntags: [vip]\nuser: { opening: "Hi" }\n',
  'scenarios/http_a.yaml': 'id: http_a\nagent: desk_http\ntags: [service]\nuser: { opening: "Hi" }\n',
};

export interface TempFolder {
  path: string;
  remove(): void;
}

export function tempFolder(files: Record<string, string> = {}): TempFolder {
  const path = mkdtempSync(join(tmpdir(), 'parley-tui-index-'));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(path, file)), { recursive: true });
    writeFileSync(join(path, file), content);
  }
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

function result(scenario_id: string, agent: string, status: Status): ScenarioResult {
  return {
    scenario_id,
    agent,
    gate: 'blocking',
    tags: [],
    metadata_only: false,
    status,
    reason: status,
    metrics: [],
    cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 },
  };
}

export interface StoredRun {
  id: string;
  minute: number;
  suite?: string;
  results: ScenarioResult[];
}

/** Writes the runs into the store at `path` (created), each started `minute` minutes after noon. */
export function writeRuns(path: string, runs: readonly StoredRun[]): void {
  const store = openStore(path);
  try {
    for (const run of runs) {
      store.createRun({
        id: run.id,
        suite: run.suite ?? 'front_desk',
        mode: 'replay',
        started_at: `2026-11-26T12:${String(run.minute).padStart(2, '0')}:00.000Z`,
        parley_version: '0.1.0',
        options: {},
        out_dir: join('.parley', 'runs', run.id),
      });
      store.saveScenarioResults(run.id, run.results);
      const counts = { pass: 0, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0 };
      for (const stored of run.results) counts[stored.status] += 1;
      const failed = counts.fail + counts.error > 0;
      store.finishRun(run.id, {
        status: failed ? 'fail' : 'pass',
        exit_code: failed ? 1 : 0,
        finished_at: `2026-11-26T12:${String(run.minute).padStart(2, '0')}:30.000Z`,
        duration_ms: 30_000,
        cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 },
        counts,
      });
    }
  } finally {
    store.close();
  }
}

/**
 * Three runs of front_desk: booking goes 100% → 50% → 50% (failing), desk_http errors then
 * passes; plus a run of another suite that must not show.
 */
export const THREE_RUNS: readonly StoredRun[] = [
  { id: 'run-1', minute: 1, results: [result('book_a', 'booking', 'pass'), result('book_b', 'booking', 'pass'), result('http_a', 'desk_http', 'error')] },
  { id: 'run-2', minute: 2, results: [result('book_a', 'booking', 'pass'), result('book_b', 'booking', 'fail'), result('http_a', 'desk_http', 'error')] },
  { id: 'run-3', minute: 3, results: [result('book_a', 'booking', 'fail'), result('book_b', 'booking', 'pass'), result('http_a', 'desk_http', 'pass')] },
  { id: 'other-1', minute: 4, suite: 'elsewhere', results: [result('zzz', 'stranger', 'fail')] },
];
