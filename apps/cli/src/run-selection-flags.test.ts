import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReportFile } from '@parley/reports';
import { REPO_ROOT, copyExample } from './test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const SUPPORT = join(REPO_ROOT, 'apps/cli/src/test-support');
/** Several `parley` processes one after another get more than the default 30 s on a busy machine. */
const PROCESSES_TIMEOUT_MS = 120_000;

/** The real binary in the suite folder, offline (no-network.cjs refuses any connection). */
function parley(cwd: string, args: string[]) {
  return spawnSync(process.execPath, ['--require', join(SUPPORT, 'no-network.cjs'), BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** Makes spa_reschedule_sw fail (a required text the recorded agent never says), or pass again. */
function breakReschedule(suite: string, broken: boolean): void {
  const file = join(suite, 'scenarios/spa_reschedule_sw.yaml');
  const [from, to] = broken ? ['required: ["BK-0988", "17:30"]', 'required: ["BK-0988", "17:45"]'] : ['required: ["BK-0988", "17:45"]', 'required: ["BK-0988", "17:30"]'];
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line.length > 0);

describe('parley run --list, --exclude, --grep', () => {
  it('lists the selected cases and writes nothing', () => {
    const suite = copyExample('booking');
    const all = parley(suite, ['run', '.', '--list']);
    expect(all.status).toBe(0);
    expect(lines(all.stdout)).toHaveLength(8);
    // --exclude drops ids by glob; --grep keeps a title or id containing the text, in any case.
    const some = parley(suite, ['run', '.', '--list', '--exclude', 'spa_booking_*', '--grep', 'SWAHILI']);
    expect(some.status).toBe(0);
    expect(lines(some.stdout)).toEqual(['spa_price_question_sw', 'spa_reschedule_sw']);
    const byId = parley(suite, ['run', '.', '--list', '--grep', 'mpesa_payment']);
    expect(lines(byId.stdout)).toEqual(['spa_mpesa_payment_failed']);
    expect(existsSync(join(suite, '.parley'))).toBe(false);
  });

  it('lists comparison cases as scenario@agent, after --scenario and --shard, and as JSON', () => {
    const suite = copyExample('booking');
    const run = parley(suite, ['run', '.', '--list', '--format', 'json', '--scenario', 'spa_reschedule_sw', '--agent', 'booking', '--agent', 'booking_v2']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(['spa_reschedule_sw', 'spa_reschedule_sw@booking_v2']);
    const shards = [1, 2].map((index) => lines(parley(suite, ['run', '.', '--list', '--shard', `${index}/2`]).stdout));
    expect([...shards[0]!, ...shards[1]!].sort()).toEqual(lines(parley(suite, ['run', '.', '--list']).stdout).sort());
    expect(shards[0]!.length).toBeLessThan(8);
    expect(existsSync(join(suite, '.parley'))).toBe(false);
  });

  it('--scenario, --exclude and --grep match comparison cases by their ids <scenario>@<agent>', () => {
    const suite = copyExample('booking');
    const agents = ['--agent', 'booking', '--agent', 'booking_v2'];
    const list = (...args: string[]): string[] => {
      const run = parley(suite, ['run', '.', '--list', ...agents, ...args]);
      expect(run.status, run.stderr).toBe(0);
      return lines(run.stdout);
    };
    const scenarios = lines(parley(suite, ['run', '.', '--list']).stdout);
    expect(list('--exclude', '*@booking_v2')).toEqual(scenarios);
    expect(list('--scenario', '*@booking_v2')).toEqual(scenarios.map((id) => `${id}@booking_v2`));
    // The scenario's own agent: its case id is the scenario's, and it answers to <scenario>@<agent> too.
    expect(list('--scenario', 'spa_reschedule_sw@booking')).toEqual(['spa_reschedule_sw']);
    expect(list('--grep', '@BOOKING_V2', '--scenario', 'spa_booking_*', '--exclude', 'spa_booking_codeswitch')).toEqual([
      'spa_booking_english_happy@booking_v2',
      'spa_booking_swahili_happy@booking_v2',
    ]);
    expect(existsSync(join(suite, '.parley'))).toBe(false);
  }, PROCESSES_TIMEOUT_MS);

  it('refuses a selection that matches nothing with exit 2', () => {
    const run = parley(copyExample('booking'), ['run', '.', '--list', '--grep', 'no such words anywhere']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('no scenario matches the selection');
  });
});

describe('parley run --last-failed', () => {
  it(
    'says there is nothing to run without a history, then runs only what failed or errored last time',
    () => {
      const suite = copyExample('booking');
      const none = parley(suite, ['run', '.', '--last-failed']);
      expect(none.status).toBe(0);
      expect(none.stderr).toContain('no finished run in the history yet');
      expect(existsSync(join(suite, '.parley'))).toBe(false);

      breakReschedule(suite, true);
      const first = parley(suite, ['run', '.', '--out', 'first']);
      const failed = readReportFile(join(suite, 'first/report.json'))
        .results.filter((result) => result.status === 'fail' || result.status === 'error')
        .map((result) => result.scenario_id)
        .sort();
      expect(first.status).toBe(1);
      // spa_booking_codeswitch is the example's known weakness: it fails, advisory, in every run.
      expect(failed).toEqual(['spa_booking_codeswitch', 'spa_reschedule_sw']);

      const listed = parley(suite, ['run', '.', '--last-failed', '--list']);
      expect(listed.status).toBe(0);
      expect(lines(listed.stdout).sort()).toEqual(failed);

      // Fixed: the re-run takes only those cases, and the next --last-failed only what still fails.
      breakReschedule(suite, false);
      const again = parley(suite, ['run', '.', '--last-failed', '--out', 'again']);
      expect(again.status).toBe(0);
      expect(again.stderr).toContain('2 case(s) that failed or errored in run');
      const results = readReportFile(join(suite, 'again/report.json')).results.map((result) => [result.scenario_id, result.status]);
      expect(results.sort()).toEqual([
        ['spa_booking_codeswitch', 'fail'],
        ['spa_reschedule_sw', 'pass'],
      ]);
      expect(lines(parley(suite, ['run', '.', '--last-failed', '--list']).stdout)).toEqual(['spa_booking_codeswitch']);
    },
    PROCESSES_TIMEOUT_MS,
  );

  it(
    "re-runs a comparison run's failed cases of another agent (<scenario>@<agent>), comparing the agents that run compared",
    () => {
      const suite = copyExample('booking');
      const compared = parley(suite, ['run', '.', '--agent', 'booking', '--agent', 'booking_v2', '--out', 'compared']);
      expect(compared.status).toBe(1);
      const failed = readReportFile(join(suite, 'compared/report.json'))
        .results.filter((result) => result.status === 'fail' || result.status === 'error')
        .map((result) => result.scenario_id)
        .sort();
      expect(failed.filter((id) => id.endsWith('@booking_v2')).length).toBeGreaterThan(0);

      const listed = parley(suite, ['run', '.', '--last-failed', '--list']);
      expect(listed.status).toBe(0);
      expect(listed.stderr).toContain(`${failed.length} case(s) that failed or errored in run`);
      expect(listed.stderr).toContain(', comparing booking, booking_v2 as it did');
      expect(lines(listed.stdout).sort()).toEqual(failed);
      // Agents given on the command line are the ones compared: the other agent's cases are not in that run.
      const own = parley(suite, ['run', '.', '--last-failed', '--list', '--agent', 'booking']);
      expect(lines(own.stdout).sort()).toEqual(failed.filter((id) => !id.includes('@')));
    },
    PROCESSES_TIMEOUT_MS,
  );

  it(
    'says the latest finished run had no failures',
    () => {
      const suite = copyExample('booking');
      const passing = parley(suite, ['run', '.', '--scenario', 'spa_price_question_sw', '--out', 'one']);
      expect(passing.status).toBe(0);
      const run = parley(suite, ['run', '.', '--last-failed']);
      expect(run.status).toBe(0);
      expect(run.stderr).toMatch(/nothing failed or errored in the latest finished run \S+; nothing to run/);
      const runs = join(suite, '.parley/runs');
      expect(existsSync(runs) ? readdirSync(runs) : []).toEqual([]);
    },
    PROCESSES_TIMEOUT_MS,
  );
});
