import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { REPO_ROOT } from './test-support/example-copy.js';
import { parleyAsync } from './test-support/parley-process.js';
import { damagedFiles, fillDisk, mountSmallDisk, snapshotFiles } from './test-support/small-disk.js';

/**
 * `parley calibrate judge` on a real (tmpfs) disk that is full, or fills up while the judges
 * rate, through the built binary against fake-llm. At every fill level the people's work (the
 * calibration folder) is unchanged; the command either finishes (exit 0), or refuses before any
 * call ("disk full: nothing was changed", exit 2, no session stored), or stops the session where
 * the disk filled (exit 2, "disk full", the ratings stored so far kept, the session unfinished)
 * and `--resume` with room again asks only for the ratings it lacks. It used to end in
 * "internal error: database or disk is full (SQLITE_FULL)".
 */

const PLANNED = 50; // 25 items × (judge, cross-check)
const ANSWER = {
  reply: {
    content: JSON.stringify({ intent_comprehension: 4, response_naturalness: 4, cultural_appropriateness: 4, reason: 'clear and polite' }),
    usage: { input_tokens: 1000, output_tokens: 40 },
  },
};
const FREE_BYTES = [0, 40_960, 81_920, 204_800, 2_097_152];

let server: FakeLlmServer;
let disk: ReturnType<typeof mountSmallDisk>;
beforeAll(async () => {
  server = await startFakeLlm({ script: { rules: [ANSWER] } });
  disk = mountSmallDisk(4096);
});
afterAll(async () => {
  await server?.close();
  disk?.unmount();
});

const env = () => ({
  OPENAI_API_KEY: 'sk-test-CALIBRATE-FULL-0123456789',
  ANTHROPIC_API_KEY: 'sk-ant-test-CALIBRATE-FULL-0123456789',
  OPENAI_BASE_URL: server.openaiBaseUrl,
  ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
});

async function storedSession(cwd: string, id: string) {
  const { openCalibrationStore } = await import('@parley/calibration');
  const store = openCalibrationStore(join(cwd, '.parley/parley.db'));
  try {
    return { session: store.session(id), ratings: store.ratings(id), sessions: store.sessions('calibration').length };
  } finally {
    store.close();
  }
}

describe('parley calibrate judge on a full disk (real tmpfs, the built binary)', () => {
  it('refuses before any call, or stops with the ratings kept and resumes; the calibration folder never changes', async () => {
    const outcomes: string[] = [];
    for (const free of FREE_BYTES) {
      const cwd = join(disk.dir, `judge-${free}`);
      mkdirSync(cwd);
      cpSync(join(REPO_ROOT, 'calibration'), join(cwd, 'calibration'), { recursive: true, filter: (source) => !source.includes(join('calibration', 'reports')) });
      // The history exists already, as it does after any earlier command.
      expect((await parleyAsync(['calibrate', 'status'], { cwd })).status).toBe(0);
      const people = snapshotFiles(join(cwd, 'calibration'));
      const history = snapshotFiles(join(cwd, '.parley'));
      server.resetLog();

      fillDisk(disk.dir, free);
      const judged = await parleyAsync(['calibrate', 'judge', '--mode', 'live', '--no-cache', '--concurrency', '2'], { cwd, env: env() });
      fillDisk(disk.dir, Number.MAX_SAFE_INTEGER);
      const at = `free ${free} bytes`;
      expect(judged.stderr, at).not.toMatch(/internal error|SQLITE_|\n\s+at /);
      expect(damagedFiles(people, join(cwd, 'calibration'), (_path, old, now) => old.equals(now)), `${at}: the people's work is unchanged`).toEqual([]);
      expect([...snapshotFiles(join(cwd, 'calibration')).keys()].sort(), at).toEqual([...people.keys()].sort());

      if (judged.status === 0) {
        expect(judged.stdout, at).toMatch(/judge anthropic:\S+: 25 rated/);
        outcomes.push('finished');
      } else if (/disk full: nothing was changed/.test(judged.stderr)) {
        expect(judged.status, at).toBe(2);
        expect(server.requests, `${at}: refused before any call, nothing paid`).toHaveLength(0);
        expect(damagedFiles(history, join(cwd, '.parley'), (_path, old, now) => old.equals(now)), at).toEqual([]);
        outcomes.push('refused');
      } else {
        expect(judged.status, judged.stderr).toBe(2);
        const stopped = /^error: \.parley\/parley\.db: disk full: judge session (\S+) stopped with (\d+) of 50 ratings kept .*finish it with: parley calibrate judge --resume \1\n$/m.exec(judged.stderr);
        expect(stopped, judged.stderr).not.toBeNull();
        const [, id, kept] = stopped!;
        // No call starts after the disk filled: at most one in flight per concurrency slot, and the one whose rating could not be stored.
        expect(server.requests.length, at).toBeLessThanOrEqual(Number(kept) + 3);
        const held = await storedSession(cwd, id!);
        expect(held.session).toMatchObject({ finished_at: null });
        expect(held.ratings).toHaveLength(Number(kept));
        expect(held.ratings.every((rating) => rating.error === null)).toBe(true);

        // With room again, --resume asks only for what the session lacks, and finishes it.
        server.resetLog();
        const resumed = await parleyAsync(['calibrate', 'judge', '--resume', id!, '--no-cache', '--concurrency', '2'], { cwd, env: env() });
        expect(resumed.status, resumed.stderr).toBe(0);
        expect(server.requests, `${at}: nothing rated twice`).toHaveLength(PLANNED - Number(kept));
        const finished = await storedSession(cwd, id!);
        expect(finished.session!.finished_at).not.toBeNull();
        expect(finished.ratings).toHaveLength(PLANNED);
        outcomes.push(`stopped after ${kept}`);
      }
      rmSync(cwd, { recursive: true, force: true }); // room for the next level
    }
    // The fill levels cover every outcome: a full disk refuses, a filling one stops and resumes, a roomy one finishes.
    expect(outcomes[0]).toBe('refused');
    expect(outcomes.some((outcome) => outcome.startsWith('stopped after'))).toBe(true);
    expect(outcomes.at(-1)).toBe('finished');
  });
});
