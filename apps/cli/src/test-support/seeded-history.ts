import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioResult } from '@parley/core';

// Loaded as the commands load it (lazily): the CLI's startup never pulls in SQLite.
const { defaultStorePath, openStore } = await import('@parley/store');

export const dayMs = 86_400_000;
export const firstDay = Date.parse('2026-03-01T08:00:00.000Z');

function result(scenarioId: string, reply = 'Karibu!'): ScenarioResult {
  return {
    scenario_id: scenarioId,
    agent: 'greeter',
    gate: 'blocking',
    tags: [],
    metadata_only: false,
    status: 'pass',
    reason: 'all expectations met',
    metrics: [{ metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: true, reason: 'Karibu present' }],
    transcript: { turns: [{ role: 'user', content: 'hello there', turn: 1 }, { role: 'assistant', content: reply, turn: 1 }], ended_by: 'max_turns' },
    cost: { input_tokens: 10, output_tokens: 3, usd: 0, calls: 1 },
  };
}

/**
 * Writes `count` finished runs of `suite` into the project's history through the store's own
 * API, one a day from 2026-03-01 (or as `timing` says), each with two results and a report folder
 * under .parley/runs. `replyOf(index)` is the agent's reply in run `index` (default: a short greeting).
 */
export function seedHistory(
  project: string,
  suite: string,
  count: number,
  timing: { from: number; stepMs: number } = { from: firstDay, stepMs: dayMs },
  replyOf: (index: number) => string = () => 'Karibu!',
): string[] {
  const store = openStore(defaultStorePath(project));
  const ids: string[] = [];
  try {
    for (let index = 0; index < count; index += 1) {
      const id = `seeded-${String(index).padStart(4, '0')}`;
      const outDir = join(project, '.parley', 'runs', id);
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, 'report.json'), `{"run_id":"${id}"}\n`);
      const started = new Date(timing.from + index * timing.stepMs).toISOString();
      store.createRun({ id, suite, mode: 'replay', started_at: started, parley_version: '0.1.0', options: { mode: 'replay' }, out_dir: outDir });
      store.saveScenarioResults(id, [result('greeting', replyOf(index)), result('smalltalk', replyOf(index))]);
      store.finishRun(id, { status: 'pass', exit_code: 0, finished_at: started, duration_ms: 1000, cost: { input_tokens: 20, output_tokens: 6, usd: 0, calls: 2 }, counts: { pass: 2, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0 } });
      ids.push(id);
    }
  } finally {
    store.close();
  }
  return ids;
}

