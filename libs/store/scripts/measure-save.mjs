// Measures how long the store takes to save and read back a large run (by hand, not in CI):
//   npx tsc -b libs/store && node libs/store/scripts/measure-save.mjs [scenarioCount]
// Each result has 6 turns and 2 metrics, saved one transaction per result as the runner does, then
// all at once with saveScenarioResults (imports).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../dist/index.js';

const scenarioCount = Number(process.argv[2] ?? 10_000);
const folder = mkdtempSync(join(tmpdir(), 'parley-store-measure-'));
const store = openStore(join(folder, '.parley', 'parley.db'));

function resultOf(index) {
  const turns = [];
  for (let turn = 1; turn <= 3; turn += 1) {
    turns.push({ role: 'user', content: `Habari! Nataka massage Jumamosi asubuhi, turn ${turn}.`, turn });
    turns.push({
      role: 'assistant',
      content: `Karibu! Tuna nafasi saa 10:00 na saa 14:00. Ungependa ipi? (${index}/${turn})`,
      turn,
      latency_ms: 420,
      usage: { input_tokens: 812, output_tokens: 64 },
      tool_calls: turn === 2 ? [{ id: 'call_1', name: 'check_availability', args: { day: 'saturday' } }] : undefined,
    });
  }
  return {
    scenario_id: `scenario_${String(index).padStart(5, '0')}`,
    agent: 'booking',
    gate: 'blocking',
    tags: ['booking', 'happy-path'],
    language: 'sw',
    metadata_only: false,
    status: 'pass',
    reason: 'all expectations met',
    metrics: [
      { metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: true, reason: 'all required present' },
      {
        metric: 'conversation_judge',
        version: '1.0.0',
        score: 0.91,
        threshold: 0.7,
        passed: true,
        reason: 'warm and correct',
        details: { message_scores: [0, 1, 2].map((message_index) => ({ message_index, score: 91, reason: 'fine' })) },
      },
    ],
    transcript: { turns, ended_by: 'script' },
    cost: { input_tokens: 2436, output_tokens: 192, usd: 0.0013, calls: 3 },
  };
}

const results = Array.from({ length: scenarioCount }, (_, index) => resultOf(index));
store.createRun({
  id: 'measure',
  suite: 'measure',
  mode: 'replay',
  started_at: new Date().toISOString(),
  parley_version: '0.1.0',
  options: {},
  out_dir: folder,
});

const saveStart = performance.now();
const saveCpuStart = process.cpuUsage();
for (const result of results) store.saveScenarioResult('measure', result);
const saveMs = performance.now() - saveStart;
const saveCpu = process.cpuUsage(saveCpuStart);
// CPU time says what the store costs when other processes compete for the cores.
const saveCpuMs = (saveCpu.user + saveCpu.system) / 1000;

store.createRun({ id: 'measure-batch', suite: 'measure', mode: 'replay', started_at: new Date().toISOString(), parley_version: '0.1.0', options: {}, out_dir: folder });
const batchStart = performance.now();
store.saveScenarioResults('measure-batch', results);
const batchMs = performance.now() - batchStart;

const readStart = performance.now();
const readBack = store.getScenarioResults('measure');
const readMs = performance.now() - readStart;

store.close();
rmSync(folder, { recursive: true, force: true });
console.log(
  `saved ${scenarioCount} results in ${saveMs.toFixed(0)} ms wall, ${saveCpuMs.toFixed(0)} ms CPU ` +
    `(${((saveMs * 1000) / scenarioCount).toFixed(1)} µs each); ` +
    `read ${readBack.length} back in ${readMs.toFixed(0)} ms; saved them again in one transaction in ${batchMs.toFixed(0)} ms`,
);
