import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyExample, REPO_ROOT } from './test-support/example-copy.js';
import { PARLEY_PACKAGE_NAME, PARLEY_PACKAGE_VERSION } from './program/package-info.js';
import { defineAgent, isConfigError, loadSuite, runSuite, type AgentTurn, type RunEvent } from './index.js';

describe('the programmatic API of parley-eval', () => {
  it('loadSuite loads and checks a suite as parley validate does', async () => {
    const suite = await loadSuite('examples/booking', { cwd: REPO_ROOT, tags: ['happy-path'] });
    expect(suite.config.suite).toBe('ratiba_booking');
    expect(suite.scenarios.map((scenario) => scenario.data.id)).toContain('spa_booking_swahili_happy');
    expect(suite.scenarios.every((scenario) => scenario.data.tags.includes('happy-path'))).toBe(true);
  });

  it('loadSuite rejects a broken suite with a ConfigError naming the file', async () => {
    const error: unknown = await loadSuite(mkdtempSync(join(tmpdir(), 'parley-api-'))).catch((caught: unknown) => caught);
    expect(isConfigError(error)).toBe(true);
    expect(error instanceof Error ? error.message : '').toContain('parley.yaml');
  });

  it('runSuite replays a suite: report, exit code, events', async () => {
    const dir = copyExample('booking');
    const events: RunEvent['type'][] = [];
    const outcome = await runSuite({ suitePath: '.', cwd: dir, outDir: 'reports', listeners: [(event) => events.push(event.type)] });
    expect(outcome.exit_code).toBe(0);
    expect(outcome.report.results).toHaveLength(8);
    expect(JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8'))).toMatchObject({ run_id: outcome.run_id, status: 'pass' });
    expect(events).toContain('run_finished');
  });

  it('defineAgent returns the respond function it is given, typed', async () => {
    const respond = defineAgent((turn: AgentTurn) => ({ reply: `turn ${turn.turn}: ${turn.message}`, state: 'echo' }));
    const turn: AgentTurn = { conversation_id: 'c1', tenant: 't', scenario_id: 's', turn: 2, message: 'hi', history: [] };
    expect(await respond(turn, { signal: undefined })).toEqual({ reply: 'turn 2: hi', state: 'echo' });
  });

  it('names one version: the package, the CLI and the runner', async () => {
    const { PARLEY_VERSION } = await import('@parley/runner');
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'apps', 'cli', 'package.json'), 'utf8')) as { name: string; version: string };
    expect(manifest).toMatchObject({ name: PARLEY_PACKAGE_NAME, version: PARLEY_PACKAGE_VERSION });
    expect(PARLEY_VERSION).toBe(PARLEY_PACKAGE_VERSION);
  });
});
