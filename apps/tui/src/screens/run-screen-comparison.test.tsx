import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@parley/core';
import { openStore } from '@parley/store';
import { renderApp, waitForFrame } from '../test-support/render-screen.js';
import { overflow } from '../triage/test-support/triage-store.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function result(scenarioId: string, agent: string, slots: number): ScenarioResult {
  return {
    scenario_id: scenarioId,
    agent,
    gate: 'blocking',
    tags: [],
    metadata_only: false,
    status: slots >= 0.75 ? 'pass' : 'fail',
    reason: slots >= 0.75 ? '3 expectations passed' : 'booking_slot_consistency: 0.5 < 0.75',
    metrics: [{ metric: 'booking_slot_consistency', version: '1.0.0', score: slots, threshold: 0.75, passed: slots >= 0.75, reason: '' }],
    cost: { input_tokens: 100, output_tokens: 10, usd: agent === 'booking' ? 0.01 : 0.02, calls: 2 },
  };
}

/** A stored comparison run: six scenarios, each against booking (its own) and booking_v2. */
function comparisonRunStore(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-compare-tui-'));
  folders.push(folder);
  const storePath = join(folder, '.parley', 'parley.db');
  const store = openStore(storePath);
  try {
    store.createRun({ id: 'run-c', suite: 'ratiba', mode: 'replay', started_at: '2026-11-26T12:00:00.000Z', parley_version: '0.1.0', options: { agents: ['booking', 'booking_v2'] }, out_dir: '.parley/runs/run-c' });
    const ids = ['s1', 's2', 's3', 's4', 's5', 's6'];
    store.saveScenarioResults('run-c', ids.flatMap((id) => [result(id, 'booking', 1), result(`${id}@booking_v2`, 'booking_v2', 0.5)]));
    store.finishRun('run-c', {
      status: 'fail',
      exit_code: 1,
      finished_at: '2026-11-26T12:00:02.000Z',
      duration_ms: 2_000,
      cost: { input_tokens: 1200, output_tokens: 120, usd: 0.18, calls: 24 },
      counts: { pass: 6, fail: 6, warn: 0, flaky: 0, error: 0, skipped: 0 },
    });
  } finally {
    store.close();
  }
  return storePath;
}

describe('RunScreen of a comparison run', () => {
  it('shows the winner per metric and each agent’s cost above the list, within 80×24', async () => {
    const rendered = renderApp({ screen: 'run', runId: 'run-c' }, { services: { storePath: comparisonRunStore() } });
    const frame = await waitForFrame(rendered, (text) => text.includes('winner per metric'));
    expect(frame).toContain('booking vs booking_v2 · winner per metric (paired test)');
    expect(frame).toMatch(/^ {2}booking_slot_consistency 1\.00 → 0\.50 {2}-0\.50 {2}p 0\.031 {2}booking$/m);
    expect(frame).toContain('booking $0.0600, – · booking_v2 $0.1200, –');
    expect(frame).toMatch(/s1@booking_v2/);
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
  });
});
