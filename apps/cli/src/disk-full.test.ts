import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm } from '@parley/fake-llm';
import { main } from './main.js';
import { captureOutput } from './test-support/capture-output.js';
import type { parseCalibrationSet as ParseCalibrationSetFunction } from '@parley/calibration';
import { REPO_ROOT } from './test-support/example-copy.js';
import { GATE_FAKE_SCRIPT, recordedGateSuite } from './test-support/gate-suite.js';
import { damagedFiles, fillDisk, mountSmallDisk, snapshotFiles } from './test-support/small-disk.js';
import { ZURI_SUITE } from './test-support/zuri-suite.js';

type ParseCalibrationSet = typeof ParseCalibrationSetFunction;

/**
 * A full disk on a real (tmpfs) file system, at several fill levels: every command either does
 * its work completely or exits 2 with "disk full: nothing was changed", and no file that held data
 * before the command is shorter or unparsable after it.
 */
const FREE_BYTES = [0, 4096, 12_288, 24_576, 65_536];

/** The description examples/generate's committed recording answers (its README shows it): generate drafts offline. */
const GENERATE_DESCRIPTION =
  'A booking assistant for a chain of unisex hair salons in the Bay Area: it finds salons by city, gives their rating, phone and address, and books appointments. Test a customer who changes the time, one who gives no date, a refund it must refuse, a prompt injection, and a city with no salon.';

/** A production conversation with a 👎 for promote (a Zuri booking; no name or number to mask). */
const PROMOTED = {
  conversation_id: 'wa:disk-full:2026-11-27',
  vertical: 'salon',
  turns: [
    { role: 'user', content: "I'd like a blow-dry on Thursday afternoon.", timestamp: '2026-11-27T09:00:00Z' },
    { role: 'assistant', content: 'We have 14:00 or 15:00 on Thursday.', timestamp: '2026-11-27T09:00:04Z' },
    { role: 'user', content: '15:00 please. How much is it?', timestamp: '2026-11-27T09:01:00Z' },
    { role: 'assistant', content: 'Done, you are booked for 15:00 on Thursday!', timestamp: '2026-11-27T09:01:03Z' },
  ],
};

async function parley(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const output = captureOutput();
  const code = await main(argv, { cwd, env, output, clock: manualClock(new Date('2026-12-07T09:00:00Z')), random: seededRandom(7) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

/** A recording rewritten whole: as many entries as before (a re-recording of the same conversation), each a JSON line. */
function sameEntriesParsable(old: Buffer, now: Buffer): boolean {
  const lines = (buffer: Buffer) => buffer.toString('utf8').split('\n').filter((line) => line !== '');
  try {
    for (const line of lines(now)) JSON.parse(line);
  } catch {
    return false;
  }
  return now.toString('utf8').endsWith('\n') && lines(now).length === lines(old).length;
}

/** The example set cut after its first item (comments, header, one rated item). */
function firstItemOfExampleSet(): string {
  const lines = readFileSync(join(REPO_ROOT, 'calibration/human_labelled.yaml'), 'utf8').split('\n');
  const items = lines.flatMap((line, index) => (line.startsWith('  - id: ') ? [index] : []));
  return `${lines.slice(0, items[1]).join('\n')}\n`;
}

let disk: ReturnType<typeof mountSmallDisk>;
let parseCalibrationSet: ParseCalibrationSet;
beforeAll(async () => {
  // The CLI loads @parley/calibration lazily; so does this test.
  ({ parseCalibrationSet } = await import('@parley/calibration'));
  disk = mountSmallDisk(1024);
});
afterAll(() => {
  disk?.unmount();
});

describe('a full disk (real tmpfs) never costs a file its data', () => {
  it('parley calibrate import: the set is imported whole or not at all (exit 2, "disk full: nothing was changed")', async () => {
    const outcomes: string[] = [];
    for (const free of FREE_BYTES) {
      const root = join(disk.dir, `import-${free}`);
      mkdirSync(join(root, 'calibration'), { recursive: true });
      // A set holding people's work: the example's first item with its ratings (the inbox holds 24 others).
      writeFileSync(join(root, 'calibration/human_labelled.yaml'), firstItemOfExampleSet());
      cpSync(join(REPO_ROOT, 'calibration/rubric.md'), join(root, 'calibration/rubric.md'));
      const before = snapshotFiles(root);
      const itemsBefore = parseCalibrationSet(before.get('calibration/human_labelled.yaml')!.toString('utf8'), 'set').items.length;
      fillDisk(disk.dir, free);
      const result = await parley(['calibrate', 'import', join(REPO_ROOT, 'calibration/inbox/2026-11-production.jsonl'), '--dir', 'calibration'], root);
      fillDisk(disk.dir, Number.MAX_SAFE_INTEGER); // free the space again for the checks
      const damaged = damagedFiles(before, root, (_path, old, now) => {
        try {
          return now.length >= old.length && parseCalibrationSet(now.toString('utf8'), 'set').items.length >= itemsBefore;
        } catch {
          return false;
        }
      });
      expect(damaged, `free ${free} bytes`).toEqual([]);
      if (result.code === 2) {
        expect(result.stderr, `free ${free} bytes`).toMatch(/^error: calibration\/\.?human_labelled\.yaml(\.lock)?: disk full: nothing was changed\n$/);
        expect(snapshotFiles(root)).toEqual(before);
        outcomes.push('refused');
      } else {
        expect(result.code, result.stderr).toBe(0);
        const added = Number(/^(\d+) added/.exec(result.stdout)?.[1]);
        expect(added).toBeGreaterThan(20);
        expect(parseCalibrationSet(readFileSync(join(root, 'calibration/human_labelled.yaml'), 'utf8'), 'set').items).toHaveLength(itemsBefore + added);
        outcomes.push('imported');
      }
    }
    // The fill levels cover both outcomes: a full disk refuses, a roomy one imports.
    expect(outcomes[0]).toBe('refused');
    expect(outcomes.at(-1)).toBe('imported');
  });

  it('parley run --mode record: a committed recording is replaced whole or kept as it was', async () => {
    const recorded = await recordedGateSuite();
    const server = await startFakeLlm({ script: GATE_FAKE_SCRIPT });
    const outcomes: string[] = [];
    try {
      for (const free of FREE_BYTES) {
        const suite = join(disk.dir, `suite-${free}`);
        // Not the recording run's own history (.parley/): it grows with every store migration, and this disk holds a few KiB.
        cpSync(recorded, suite, { recursive: true, filter: (source) => !source.includes('record-run') && !source.includes('/.parley') });
        const before = snapshotFiles(suite);
        // The history, the reports and the kept re-recordings live off the small disk: only the suite's recordings are on it.
        const cwd = mkdtempSync(join(tmpdir(), 'parley-disk-full-cwd-'));
        await fetch(`${server.url}/_fake/reset`, { method: 'POST' }); // the same answers as when the suite was recorded
        fillDisk(disk.dir, free);
        const result = await parley(['run', suite, '--mode', 'record', '--out', join(cwd, 'out')], cwd, {
          OPENAI_API_KEY: 'sk-test-DISKFULL-0123456789',
          OPENAI_BASE_URL: server.openaiBaseUrl,
        });
        fillDisk(disk.dir, Number.MAX_SAFE_INTEGER);
        expect(damagedFiles(before, suite, (path, old, now) => path.endsWith('.jsonl') && sameEntriesParsable(old, now)), `free ${free} bytes`).toEqual([]);
        if (result.code === 2) {
          expect(result.stderr, `free ${free} bytes`).toMatch(/recordings\/[a-z_0-9]+\.jsonl: disk full: nothing was changed/);
          outcomes.push('refused');
        } else {
          expect([0, 1], result.stderr).toContain(result.code);
          outcomes.push('recorded');
        }
      }
    } finally {
      await server.close();
    }
    expect(outcomes[0]).toBe('refused');
    expect(outcomes.at(-1)).toBe('recorded');
  });

  it('parley init: a full disk leaves each new file whole or absent, never empty or cut (exit 2, "disk full: nothing was changed")', async () => {
    const outcomes: string[] = [];
    for (const free of [...FREE_BYTES, 262_144]) {
      // What init writes with room to spare, in a folder of the same name (the suite is named after it).
      const roomy = join(mkdtempSync(join(tmpdir(), 'parley-disk-full-init-')), `init-${free}`);
      mkdirSync(roomy);
      expect((await parley(['init', '--yes'], roomy)).code).toBe(0);
      const whole = snapshotFiles(roomy);
      expect(whole.size).toBeGreaterThan(3);
      const project = join(disk.dir, `init-${free}`);
      mkdirSync(project);
      fillDisk(disk.dir, free);
      const result = await parley(['init', '--yes'], project);
      fillDisk(disk.dir, Number.MAX_SAFE_INTEGER);
      const written = snapshotFiles(project);
      // Scaffold files are compared byte for byte; the recording (made by a run, written atomically) must be whole JSON lines.
      const intact = (path: string, bytes: Buffer) => (path.endsWith('.jsonl') ? sameEntriesParsable(whole.get(path) ?? Buffer.alloc(0), bytes) : whole.get(path)?.equals(bytes) === true);
      const cut = [...written].filter(([path, bytes]) => !intact(path, bytes)).map(([path, bytes]) => `${path} (${bytes.length} bytes)`);
      expect(cut, `free ${free} bytes`).toEqual([]);
      if (result.code === 2) {
        expect(result.stderr, `free ${free} bytes`).toMatch(/: disk full: nothing was changed\n$/);
        outcomes.push('refused');
      } else {
        expect(result.code, result.stderr).toBe(0);
        // The starter recording is made by a record run whose history may not fit this disk; init says so and goes on.
        const scaffold = (keys: Iterable<string>) => [...keys].filter((path) => !path.startsWith('recordings/')).sort();
        expect(scaffold(written.keys())).toEqual(scaffold(whole.keys()));
        outcomes.push('written');
      }
    }
    expect(outcomes[0]).toBe('refused');
    expect(outcomes.at(-1)).toBe('written');
  });

  /**
   * A command that writes new files into a suite, tried at every fill level: each file it leaves
   * is whole (byte for byte what it writes with room to spare) or absent, never empty or cut, the
   * files that were there keep their data, and it either finishes (exit 0) or says the disk is full
   * (exit 2). `copy` makes the suite's starting files in a folder; `command` runs in it.
   */
  async function newFilesWholeOrAbsent(label: string, copy: (dir: string) => void, command: string[], options: { allOrNone?: boolean } = {}): Promise<string[]> {
    const roomy = join(mkdtempSync(join(tmpdir(), `parley-disk-full-${label}-`)), label);
    copy(roomy);
    const start = snapshotFiles(roomy);
    const spacious = await parley(command, roomy);
    expect(spacious.code, spacious.stderr).toBe(0);
    const whole = snapshotFiles(roomy);
    const created = [...whole.keys()].filter((path) => !start.has(path));
    expect(created.length, `${label} writes new files`).toBeGreaterThan(0);
    const outcomes: string[] = [];
    for (const free of [...FREE_BYTES, 131_072]) {
      const dir = join(disk.dir, `${label}-${free}`);
      copy(dir);
      const before = snapshotFiles(dir);
      fillDisk(disk.dir, free);
      const result = await parley(command, dir);
      fillDisk(disk.dir, Number.MAX_SAFE_INTEGER);
      const after = snapshotFiles(dir);
      expect(damagedFiles(before, dir, (_path, old, now) => old.equals(now)), `free ${free} bytes`).toEqual([]);
      const cut = [...after].filter(([path, bytes]) => !before.has(path) && whole.get(path)?.equals(bytes) !== true).map(([path, bytes]) => `${path} (${bytes.length} bytes)`);
      expect(cut, `free ${free} bytes: a new file is whole or absent`).toEqual([]);
      if (result.code === 2) {
        expect(result.stderr, `free ${free} bytes`).toMatch(/disk full/);
        expect(result.stderr, `free ${free} bytes`).not.toMatch(/internal error/);
        if (options.allOrNone) expect([...after.keys()].filter((path) => !before.has(path)), `free ${free} bytes: refused, so nothing new`).toEqual([]);
        outcomes.push('refused');
      } else {
        expect(result.code, result.stderr).toBe(0);
        expect([...after.keys()].filter((path) => !before.has(path)).sort(), `free ${free} bytes`).toEqual(created.sort());
        outcomes.push('written');
      }
      rmSync(dir, { recursive: true, force: true }); // room for the next level
    }
    return outcomes;
  }

  it('parley generate: a full disk leaves each drafted scenario whole or absent, never empty or cut', async () => {
    const copy = (dir: string) => {
      for (const part of ['parley.yaml', 'prompts', 'tools', 'recordings']) cpSync(join(REPO_ROOT, 'examples/generate', part), join(dir, part), { recursive: true });
    };
    const outcomes = await newFilesWholeOrAbsent('generate', copy, ['generate', '--from', GENERATE_DESCRIPTION, '--count', '5']);
    expect(outcomes[0]).toBe('refused');
    expect(outcomes.at(-1)).toBe('written');
  });

  it('parley promote: a full disk leaves the promoted scenario and its recording whole or absent, never empty or cut', async () => {
    const copy = (dir: string) => {
      mkdirSync(dir, { recursive: true });
      for (const [path, text] of Object.entries(ZURI_SUITE)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      writeFileSync(join(dir, 'logs.jsonl'), `${JSON.stringify(PROMOTED)}\n`);
      writeFileSync(join(dir, 'feedback.jsonl'), `${JSON.stringify({ conversation_id: PROMOTED.conversation_id, user_feedback: '👎', comment: 'no price' })}\n`);
    };
    const outcomes = await newFilesWholeOrAbsent('promote', copy, ['promote', '--logs', 'logs.jsonl', '--feedback', 'feedback.jsonl', '--suite', '.']);
    expect(outcomes[0]).toBe('refused');
    expect(outcomes.at(-1)).toBe('written');
  });

  it('parley recordings export: a full disk writes every masked copy whole, or none (exit 2, never "internal error")', async () => {
    const copy = (dir: string) => {
      for (const part of ['parley.yaml', 'prompts', 'tools', 'scenarios', 'recordings']) cpSync(join(REPO_ROOT, 'examples/variants', part), join(dir, part), { recursive: true });
    };
    const outcomes = await newFilesWholeOrAbsent('recordings-export', copy, ['recordings', 'export', '--out', 'shared'], { allOrNone: true });
    expect(outcomes[0]).toBe('refused');
    expect(outcomes.at(-1)).toBe('written');
  });
});
