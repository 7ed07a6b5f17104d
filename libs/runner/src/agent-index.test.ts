import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScenarioResult, Status } from '@parley/core';
import { openStore, type AgentRunSummary } from '@parley/store';
import { agentIndexChoices, agentPassRate, agentRunStatus, buildAgentIndex, filterAgentIndex, readAgentIndex } from './agent-index.js';
import { loadSuiteAgents } from './suite-agents.js';
import { writeTempSuite } from './test-support/temp-suite.js';

const MIXED_SUITE: Record<string, string> = {
  'parley.yaml': `suite: front_desk
agents:
  booking: { kind: openai, model: gpt-4.1-mini }
  concierge: { kind: anthropic, model: claude-haiku-4-5 }
  desk_http: { kind: http, url: "http://127.0.0.1:9/chat" }
  desk_cli: { kind: command, command: ["node", "agent.mjs"] }
`,
  'scenarios/book_a.yaml': 'id: book_a\nagent: booking\ntags: [booking, happy-path]\nuser: { opening: "Hi" }\n',
  'scenarios/book_b.yaml': 'id: book_b\nagent: booking\ntags: [booking]\nuser: { opening: "Hi" }\n',
  'scenarios/http_a.yaml': 'id: http_a\nagent: desk_http\ntags: [service]\nuser: { opening: "Hi" }\n',
};

function summary(overrides: Partial<AgentRunSummary>): AgentRunSummary {
  return { run_id: 'r', started_at: '2026-11-26T12:00:00.000Z', scenarios: 0, pass: 0, warn: 0, flaky: 0, fail: 0, error: 0, skipped: 0, ...overrides };
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

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function suiteFolder(): string {
  const dir = writeTempSuite(MIXED_SUITE);
  folders.push(dir);
  return dir;
}

function storeWithRuns(dir: string, runs: Array<{ id: string; minute: number; suite?: string; results: ScenarioResult[] }>): string {
  const path = join(dir, '.parley', 'parley.db');
  const store = openStore(path);
  for (const run of runs) {
    store.createRun({
      id: run.id,
      suite: run.suite ?? 'front_desk',
      mode: 'replay',
      started_at: `2026-11-26T12:${String(run.minute).padStart(2, '0')}:00.000Z`,
      parley_version: '0.1.0',
      options: {},
      out_dir: 'out',
    });
    store.saveScenarioResults(run.id, run.results);
  }
  store.close();
  return path;
}

describe('suite agents', () => {
  it('lists prompt and service agents together with their kind, scenario count and tags', () => {
    const loaded = loadSuiteAgents(suiteFolder());
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.value.suite).toBe('front_desk');
    expect(loaded.value.agents).toEqual([
      { name: 'booking', kind: 'openai', family: 'prompt', scenarios: 2, tags: ['booking', 'happy-path'] },
      { name: 'concierge', kind: 'anthropic', family: 'prompt', scenarios: 0, tags: [] },
      { name: 'desk_cli', kind: 'command', family: 'service', scenarios: 0, tags: [] },
      { name: 'desk_http', kind: 'http', family: 'service', scenarios: 1, tags: ['service'] },
    ]);
  });

  it('loads the example suites: services of every kind, and prompt agents', () => {
    const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
    const services = loadSuiteAgents(join(examples, 'service-agents'));
    if (!services.ok) throw new Error(services.error);
    expect(services.value.agents.map((agent) => [agent.name, agent.family, agent.kind, agent.scenarios])).toEqual([
      ['receptionist_command', 'service', 'command', 1],
      ['receptionist_http', 'service', 'http', 1],
      ['receptionist_module', 'service', 'module', 1],
    ]);
    const booking = loadSuiteAgents(join(examples, 'booking'));
    if (!booking.ok) throw new Error(booking.error);
    expect(booking.value.agents.every((agent) => agent.family === 'prompt')).toBe(true);
    expect(booking.value.agents.reduce((sum, agent) => sum + agent.scenarios, 0)).toBe(8);
  });

  it('returns the loader message instead of throwing when there is no parley.yaml', () => {
    const dir = writeTempSuite({ 'README.md': 'not a suite' });
    folders.push(dir);
    const loaded = loadSuiteAgents(dir);
    expect(loaded).toEqual({ ok: false, error: expect.stringContaining('no parley.yaml in this folder') });
  });
});

describe('pass rate and status', () => {
  it('counts pass and warn as passed, leaves skipped out, and is null when nothing was evaluated', () => {
    expect(agentPassRate(summary({ scenarios: 4, pass: 1, warn: 1, fail: 1, skipped: 1 }))).toBeCloseTo(2 / 3);
    expect(agentPassRate(summary({ scenarios: 2, flaky: 1, error: 1 }))).toBe(0);
    expect(agentPassRate(summary({ scenarios: 1, skipped: 1 }))).toBeNull();
  });

  it('is failing when the newest run failed or errored, passing otherwise, never run without runs', () => {
    expect(agentRunStatus([])).toBe('never run');
    expect(agentRunStatus([summary({ scenarios: 1, error: 1 }), summary({ scenarios: 1, pass: 1 })])).toBe('failing');
    expect(agentRunStatus([summary({ scenarios: 2, pass: 1, flaky: 1 }), summary({ scenarios: 1, fail: 1 })])).toBe('passing');
  });
});

describe('agent index', () => {
  it('joins the suite with the history: last pass rate, trend oldest first, status; history-only agents too', () => {
    const loaded = loadSuiteAgents(suiteFolder());
    if (!loaded.ok) throw new Error(loaded.error);
    const history = new Map([
      ['booking', [summary({ run_id: 'r2', scenarios: 2, pass: 1, fail: 1 }), summary({ run_id: 'r1', scenarios: 2, pass: 2 })]],
      ['retired', [summary({ run_id: 'r1', scenarios: 1, pass: 1 })]],
    ]);
    const rows = buildAgentIndex(loaded.value, history);
    expect(rows.map((row) => row.name)).toEqual(['booking', 'concierge', 'desk_cli', 'desk_http', 'retired']);
    const booking = rows[0]!;
    expect(booking.lastRun).toMatchObject({ run_id: 'r2', passRate: 0.5, scenarios: 2 });
    expect(booking.trend).toEqual([1, 0.5]);
    expect(booking.status).toBe('failing');
    expect(rows[1]).toMatchObject({ name: 'concierge', lastRun: null, trend: [], status: 'never run', kind: 'anthropic' });
    expect(rows[4]).toMatchObject({ name: 'retired', kind: null, family: null, scenarios: null, status: 'passing' });
  });

  it('filters by family or kind, tag and status, and offers the values present', () => {
    const loaded = loadSuiteAgents(suiteFolder());
    if (!loaded.ok) throw new Error(loaded.error);
    const rows = buildAgentIndex(loaded.value, new Map([['booking', [summary({ scenarios: 1, fail: 1 })]]]));
    const names = (filter: Parameters<typeof filterAgentIndex>[1]) => filterAgentIndex(rows, filter).map((row) => row.name);
    expect(names({ kind: 'service' })).toEqual(['desk_cli', 'desk_http']);
    expect(names({ kind: 'prompt' })).toEqual(['booking', 'concierge']);
    expect(names({ kind: 'http' })).toEqual(['desk_http']);
    expect(names({ tag: 'booking' })).toEqual(['booking']);
    expect(names({ status: 'failing' })).toEqual(['booking']);
    expect(names({ status: 'never run', kind: 'prompt' })).toEqual(['concierge']);
    expect(agentIndexChoices(rows)).toEqual({
      kinds: ['prompt', 'service', 'anthropic', 'command', 'http', 'openai'],
      tags: ['booking', 'happy-path', 'service'],
      statuses: ['passing', 'failing', 'never run'],
    });
  });

  it('reads the suite and the store of the folder into rows', () => {
    const dir = suiteFolder();
    const storePath = storeWithRuns(dir, [
      { id: 'r1', minute: 1, results: [result('book_a', 'booking', 'pass'), result('book_b', 'booking', 'pass'), result('http_a', 'desk_http', 'error')] },
      { id: 'r2', minute: 2, results: [result('book_a', 'booking', 'pass'), result('book_b', 'booking', 'fail')] },
      { id: 'x1', minute: 3, suite: 'another', results: [result('book_a', 'booking', 'fail')] },
    ]);
    const index = readAgentIndex({ suitePath: dir, storePath });
    expect(index.problems).toEqual([]);
    expect(index.suite?.name).toBe('front_desk');
    const byName = new Map(index.rows.map((row) => [row.name, row]));
    expect(byName.get('booking')?.trend).toEqual([1, 0.5]);
    expect(byName.get('desk_http')).toMatchObject({ status: 'failing', trend: [0] });
  });

  it('without a suite shows the history and says why the suite did not load; a missing store is not created', () => {
    const dir = suiteFolder();
    const storePath = storeWithRuns(dir, [{ id: 'r1', minute: 1, results: [result('a', 'booking', 'pass'), result('b', 'legacy', 'fail')] }]);
    const empty = writeTempSuite({ 'notes.txt': '' });
    folders.push(empty);

    const index = readAgentIndex({ suitePath: empty, storePath });
    expect(index.suite).toBeUndefined();
    expect(index.problems).toEqual([`suite did not load: ${empty}: no parley.yaml in this folder`]);
    expect(index.rows.map((row) => [row.name, row.kind, row.status])).toEqual([
      ['booking', null, 'passing'],
      ['legacy', null, 'failing'],
    ]);

    const missing = join(empty, '.parley', 'parley.db');
    expect(readAgentIndex({ suitePath: dir, storePath: missing }).rows.every((row) => row.status === 'never run')).toBe(true);
    expect(existsSync(missing)).toBe(false);
  });

  it('reports a store that cannot be opened instead of throwing', () => {
    const dir = writeTempSuite({ '.parley/parley.db': 'this is not a database, just text that is long enough to look like a header' });
    folders.push(dir);
    const index = readAgentIndex({ suitePath: dir, storePath: join(dir, '.parley', 'parley.db') });
    expect(index.rows).toEqual([]);
    expect(index.problems).toHaveLength(2);
    expect(index.problems[1]).toMatch(/^run history .* could not be read: /);
  });

  it('a team store that cannot be reached: the problem names the server (password as ***), not the local file it does not use', () => {
    const dir = writeTempSuite({});
    folders.push(dir);
    const before = process.env.PARLEY_DATABASE_URL;
    process.env.PARLEY_DATABASE_URL = 'postgres://parley:s3cret-4410@127.0.0.1:1/team';
    try {
      const index = readAgentIndex({ suitePath: dir, storePath: join(dir, '.parley', 'parley.db') });
      const problem = index.problems.find((line) => line.startsWith('run history'));
      expect(problem).toMatch(/^run history could not be read: cannot connect to the PostgreSQL store postgres:\/\/parley:\*\*\*@127\.0\.0\.1:1\/team: /);
      expect(index.problems.join('\n')).not.toMatch(/parley\.db|s3cret-4410/);
    } finally {
      if (before === undefined) delete process.env.PARLEY_DATABASE_URL;
      else process.env.PARLEY_DATABASE_URL = before;
    }
  });
});
