import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isConfigError, type ScenarioResult } from '@parley/core';
import { floorRedactor } from '@parley/redaction';
import { writeReports, type RunReport } from '@parley/reports';
import { openStore } from '@parley/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRunForExport } from './stored-run.js';
import { report } from './test-support/run-report.js';

/** The booking example is suite ratiba_booking, as the fixture run is. */
const BOOKING_SUITE = fileURLToPath(new URL('../../../examples/booking', import.meta.url));
/** An `http` agent's suite: no prompt file, so no version of the agent. */
const SERVICE_SUITE = fileURLToPath(new URL('../../../examples/booking-service/suite', import.meta.url));
const TENANT = 'test_tenant_spa_happy_0badf00d';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-stored-run-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture run in a store under dir, made from `suiteDir`, finished unless told. */
function storeRun(run: RunReport, options: { suiteDir?: string; finished?: boolean } = {}): void {
  const outDir = join(dir, 'reports', run.run_id);
  writeReports(outDir, run);
  const store = openStore(join(dir, '.parley', 'parley.db'));
  try {
    store.createRun({ id: run.run_id, suite: run.suite, mode: run.mode, started_at: run.started_at, parley_version: '0.1.0', options: options.suiteDir ? { suite_dir: options.suiteDir } : {}, out_dir: outDir });
    store.saveScenarioResult(run.run_id, { ...(run.results[0] as ScenarioResult), session: { conversation_id: 'conv_1', tenant: TENANT } });
    if (options.finished !== false) {
      store.finishRun(run.run_id, { status: run.status, exit_code: run.exit_code, finished_at: run.finished_at, duration_ms: run.duration_ms, cost: run.cost, counts: run.counts });
    }
  } finally {
    store.close();
  }
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isConfigError(error)).toBe(true);
  return String((error as Error).message);
}

describe('loadRunForExport', () => {
  it('finds a stored run by id prefix, with the tenant each scenario ran under, the prompt versions and the suite\'s redactor', async () => {
    storeRun(report(false), { suiteDir: BOOKING_SUITE });
    const loaded = await loadRunForExport('run-', { cwd: dir, env: {} });
    expect(loaded.report.run_id).toBe('run-1');
    expect(loaded.report.results.map((result) => result.scenario_id)).toEqual(['spa_happy']);
    expect([...loaded.tenants]).toEqual([['spa_happy', TENANT]]);
    expect(loaded.promptVersions.get('booking')).toMatch(/^booking@/);
    expect(loaded.redactor).not.toBe(floorRedactor());
    expect(loaded.notes).toEqual([]);
  });

  it('gives an http agent, which has no prompt file, no prompt version (not one made of its name)', async () => {
    const run = report(false);
    storeRun({ ...run, suite: 'booking_service', results: run.results.map((result) => ({ ...result, agent: 'booking_service' })) }, { suiteDir: SERVICE_SUITE });
    const loaded = await loadRunForExport('run-1', { cwd: dir, env: {} });
    expect(loaded.notes).toEqual([]);
    expect([...loaded.promptVersions]).toEqual([]);
  });

  it('reads a report folder (a CI artefact) without tenants, masking with the floor rules when the suite is unknown', async () => {
    const outDir = join(dir, 'artefact');
    writeReports(outDir, report(false));
    const loaded = await loadRunForExport('artefact', { cwd: dir, env: {} });
    expect(loaded.report.run_id).toBe('run-1');
    expect(loaded.tenants.size).toBe(0);
    expect(loaded.redactor).toBe(floorRedactor());
    expect(loaded.notes).toEqual(['the suite is unknown (pass --suite DIR), so content is masked by the redactor\'s floor rules only']);
  });

  it('notes a suite that can no longer be loaded instead of failing', async () => {
    storeRun(report(false), { suiteDir: join(dir, 'deleted-suite') });
    const loaded = await loadRunForExport('run-1', { cwd: dir, env: {} });
    expect(loaded.notes).toEqual([`the suite at ${join(dir, 'deleted-suite')} could not be loaded, so content is masked by the redactor's floor rules only`]);
  });

  it('refuses a run of another suite than --suite, an unfinished run, and an unknown one', async () => {
    storeRun({ ...report(false), suite: 'municipal_services' }, { suiteDir: BOOKING_SUITE });
    expect(await refusal(loadRunForExport('run-1', { cwd: dir, env: {}, suite: BOOKING_SUITE }))).toBe(`--suite ${BOOKING_SUITE} is suite "ratiba_booking", but run run-1 is of suite "municipal_services"`);
    storeRun({ ...report(false), run_id: 'run-2' }, { finished: false });
    expect(await refusal(loadRunForExport('run-2', { cwd: dir, env: {} }))).toBe('run run-2 has not finished: finish it with `parley run --resume run-2` before exporting it');
    expect(await refusal(loadRunForExport('run-9', { cwd: dir, env: {} }))).toBe('no run with id "run-9" (see `parley runs list`)');
  });

  it('says so when there is no store and no report folder of that name', async () => {
    expect(await refusal(loadRunForExport('run-1', { cwd: dir, env: {} }))).toBe(`no run "run-1": there is no ${join(dir, '.parley', 'parley.db')} here, and no report folder of that name`);
  });
});
