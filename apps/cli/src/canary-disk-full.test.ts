import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeLlm } from '@parley/fake-llm';
import { writeCanaryLog } from './test-support/canary-log.js';
import { REPO_ROOT } from './test-support/example-copy.js';
import { MONITORED_SUITE } from './test-support/monitored-suite.js';
import { parleyAsync } from './test-support/parley-process.js';
import { damagedFiles, fillDisk, historyOnSmallDisk, snapshotFiles } from './test-support/small-disk.js';
import { writeSuite } from './test-support/zuri-suite.js';

/**
 * `parley canary` on a full disk (a real tmpfs under the run history, and output redirected onto
 * it), through the built binary. `canary compare` reads the scores `parley monitor` stored: with
 * a full disk under them it either compares exactly as with room or says "disk full" (exit 2), and
 * the history is byte for byte as it was. Output redirected to a full disk (`canary assign < ids >
 * arms.tsv`) is one line and exit 2: it used to end in a TypeError from the internal-error
 * handler (exit 7).
 */

const disks: Array<{ unmount(): void }> = [];
afterAll(() => {
  for (const disk of disks.splice(0)) disk.unmount();
});


/** The real binary with stdout redirected to `file` (as a shell's `>` does). */
async function redirected(args: string[], cwd: string, file: string): Promise<{ status: number | null; stderr: string }> {
  const out = openSync(file, 'w');
  try {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/bin/parley.js'), ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }, stdio: ['ignore', out, 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { status, stderr };
  } finally {
    closeSync(out);
  }
}

describe('parley canary on a full disk (real tmpfs, the built binary)', () => {
  it('compare: the same comparison, or exit 2 "disk full"; the monitor scores it reads unchanged; output onto a full disk is one line, exit 2', async () => {
    const llm = await startFakeLlm({ script: { rules: [], fallback: { content: JSON.stringify({ score: 4, reason: 'Clear answer.' }), usage: { input_tokens: 1000, output_tokens: 40 } } } });
    const suite = writeSuite(MONITORED_SUITE);
    const disk = historyOnSmallDisk(suite);
    disks.push(disk);
    // A canary log: 60 conversations on v1 (3 👎), 20 on v2 (4 👎).
    writeCanaryLog(suite, [{ version: 'v1', count: 60, negative: 3 }, { version: 'v2', count: 20, negative: 4 }]);
    try {
      const env = { OPENAI_API_KEY: 'sk-test-canary-full-0123', OPENAI_BASE_URL: llm.openaiBaseUrl };
      const monitored = await parleyAsync(['monitor', '--logs', 'conversations.jsonl', '--sample', '100', '--format', 'json'], { cwd: suite, env });
      expect(monitored.status, monitored.stderr).toBe(0);
    } finally {
      await llm.close();
    }
    const compare = ['canary', 'compare', '--logs', 'conversations.jsonl', '--feedback', 'feedback.jsonl', '--stable', 'v1', '--canary', 'v2', '--format', 'json'];
    const roomy = await parleyAsync(compare, { cwd: suite });
    // 20 % 👎 on the canary against 5 %: roll back (exit 1), with the judged metric compared from the store.
    expect(roomy.status, roomy.stderr).toBe(1);
    expect((JSON.parse(roomy.stdout) as { metrics: Array<{ metric: string }> }).metrics.map((metric) => metric.metric)).toContain('service_quality');
    const history = snapshotFiles(disk.dir);

    const outcomes = new Set<string>();
    for (const free of [0, 4096, 16_384, 65_536, 262_144]) {
      fillDisk(disk.dir, free);
      const full = await parleyAsync(compare, { cwd: suite });
      fillDisk(disk.dir, Number.MAX_SAFE_INTEGER);
      const at = `free ${free} bytes`;
      expect(full.stderr, at).not.toMatch(/internal error|SQLITE_|\n\s+at /);
      expect(damagedFiles(history, disk.dir, (_path, old, now) => old.equals(now)), `${at}: the history is unchanged`).toEqual([]);
      if (full.status === 2) {
        expect(full.stderr, at).toBe('error: .parley/parley.db: disk full: nothing was changed\n');
        expect(full.stdout, at).toBe('');
        outcomes.add('refused');
      } else {
        expect(full.stdout, at).toBe(roomy.stdout);
        expect(full.status, at).toBe(1);
        outcomes.add('compared');
      }
    }
    expect([...outcomes].sort()).toEqual(['compared', 'refused']);

    // Output redirected onto the full disk: one line, exit 2, never an internal error.
    fillDisk(disk.dir, 0);
    const ids = Array.from({ length: 5000 }, (_, index) => `wa:2547${String(index).padStart(8, '0')}`);
    const assigned = await redirected(['canary', 'assign', '--rollout', '5', ...ids], suite, join(disk.dir, 'arms.tsv'));
    expect(assigned.status, assigned.stderr).toBe(2);
    expect(assigned.stderr).toBe('error: standard output: disk full: what was written there is cut short; free some space and run again\n');
    fillDisk(disk.dir, Number.MAX_SAFE_INTEGER);
    expect(damagedFiles(history, disk.dir, (_path, old, now) => old.equals(now))).toEqual([]);
    expect(readFileSync(join(suite, 'feedback.jsonl'), 'utf8')).toContain('👎');
  }, 180_000);
});
