import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom, type RunEvent } from '@parley/core';
import { loadFakeScript, startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { runSuite } from './run-suite.js';

/**
 * The demo booking service (examples/booking-service) against a real PostgreSQL: .ci/run installs
 * the server from Debian's packages, starts a cluster and exports PARLEY_TEST_DATABASE_URL.
 */
const DATABASE_URL = process.env.PARLEY_TEST_DATABASE_URL;
const EXAMPLE = fileURLToPath(new URL('../../../examples/booking-service/', import.meta.url));
const FAKE_KEY = 'sk-test-BOOKINGSERVICE-0123456789';

function tenants(): string[] {
  const listed = spawnSync(process.execPath, [join(EXAMPLE, 'scripts/list-tenants.mjs')], {
    env: { ...process.env, DATABASE_URL },
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(listed.stderr);
  return JSON.parse(listed.stdout) as string[];
}

function runNode(script: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync(process.execPath, [join(EXAMPLE, script)], { env: { ...process.env, DATABASE_URL, ...env }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
}

describe.skipIf(!DATABASE_URL)(
  'the demo booking service over HTTP, one PostgreSQL schema per tenant (needs PARLEY_TEST_DATABASE_URL; .ci/run provides it)',
  () => {
    let fake: FakeLlmServer;
    let service: ChildProcess;
    let serviceUrl = '';
    let suiteDir = '';

    beforeAll(async () => {
      suiteDir = mkdtempSync(join(tmpdir(), 'parley-booking-service-'));
      cpSync(join(EXAMPLE, 'suite'), suiteDir, { recursive: true });
      rmSync(join(suiteDir, 'recordings'), { recursive: true, force: true });
      // The copy runs the example's own hook scripts (they find `pg` in the repository).
      const config = readFileSync(join(suiteDir, 'parley.yaml'), 'utf8').replaceAll('../scripts/', join(EXAMPLE, 'scripts/'));
      writeFileSync(join(suiteDir, 'parley.yaml'), config);
      fake = await startFakeLlm({ script: loadFakeScript(join(suiteDir, 'fake-llm.yaml')) });
      service = spawn(process.execPath, [join(EXAMPLE, 'server.mjs'), '--port', '0'], {
        env: { ...process.env, DATABASE_URL, OPENAI_BASE_URL: fake.openaiBaseUrl, OPENAI_API_KEY: FAKE_KEY },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      serviceUrl = await new Promise<string>((resolve, reject) => {
        service.once('exit', (code) => reject(new Error(`booking service exited with ${code}`)));
        createInterface({ input: service.stdout! }).on('line', (line) => {
          const match = /listening on (http:\S+)/.exec(line);
          if (match) resolve(match[1]!);
        });
      });
    });

    afterAll(async () => {
      service?.kill('SIGTERM');
      await fake?.close();
    });

    it('runs the suite concurrently with no state shared between scenarios and no tenant schema left, then replays it offline', async () => {
      runNode('scripts/create-tenant.mjs', { PARLEY_TENANT: 'test_tenant_crashed_run_0badf00d' }); // what a crashed run leaves
      const events: RunEvent[] = [];
      const recorded = await runSuite(
        { suitePath: suiteDir, mode: 'record', concurrency: 4, outDir: 'out/record' },
        {
          cwd: suiteDir,
          env: { DATABASE_URL, BOOKING_SERVICE_URL: serviceUrl, OPENAI_API_KEY: FAKE_KEY, OPENAI_BASE_URL: fake.openaiBaseUrl, PATH: process.env.PATH },
          clock: manualClock(),
          random: seededRandom(11),
          listeners: [(event) => events.push(event)],
        },
      );
      const byId = Object.fromEntries(recorded.report.results.map((result) => [result.scenario_id, result]));
      for (const result of recorded.report.results) expect([result.scenario_id, result.status, result.error?.details]).toEqual([result.scenario_id, 'pass', undefined]);
      expect(Object.keys(byId).sort()).toEqual(['book_afternoon_chebet', 'book_morning_amina', 'book_morning_baraka', 'simulated_booking']);

      // Scenarios really overlapped: more than one had started and not yet finished at some point.
      let running = 0;
      let mostAtOnce = 0;
      for (const event of events) {
        if (event.type === 'scenario_started') mostAtOnce = Math.max(mostAtOnce, ++running);
        if (event.type === 'scenario_finished') running -= 1;
      }
      expect(mostAtOnce).toBeGreaterThan(1);

      // Two customers booked the same 10:00 slot at the same time, and each saw only her own tenant:
      // booking id BK-1001 and exactly one booking. Shared state would give BK-1002 or "slot taken".
      for (const id of ['book_morning_amina', 'book_morning_baraka']) {
        const replies = byId[id]!.transcript!.turns.filter((turn) => turn.role === 'assistant').map((turn) => turn.content);
        expect(replies).toEqual([
          'We have free slots on Saturday at 10:00 and 14:00. Which time would you like?',
          'Your massage is confirmed: booking BK-1001, Saturday at 10:00.',
          'You have 1 booking: BK-1001, Saturday at 10:00.',
        ]);
      }
      const simulated = byId.simulated_booking!.transcript!;
      expect(simulated.ended_by).toBe('goal_reached');
      expect(simulated.turns.filter((turn) => turn.simulated).map((turn) => turn.content)).toEqual([
        'Hi! Can I book a massage on Saturday?',
        '10:00 please.',
      ]);
      expect(simulated.turns.map((turn) => turn.state).filter(Boolean)).toEqual(['offering', 'booked']);

      // The sweep dropped the crashed run's schema, every teardown dropped its own: nothing is left.
      expect(tenants()).toEqual([]);

      // Replay: no service, no database, no network; the same transcripts and statuses.
      service.kill('SIGTERM');
      const callsBefore = fake.requests.length;
      const replayed = await runSuite(
        { suitePath: suiteDir, outDir: 'out/replay' },
        { cwd: suiteDir, env: { PATH: process.env.PATH }, clock: manualClock(), random: seededRandom(12) },
      );
      expect(replayed.report.mode).toBe('replay');
      expect(fake.requests.length).toBe(callsBefore);
      expect(replayed.report.results.map((result) => [result.scenario_id, result.status, result.transcript])).toEqual(
        recorded.report.results.map((result) => [result.scenario_id, result.status, result.transcript]),
      );
    });
  },
);
