import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { measureCommand } from './measure-command.js';
import { parleyReplayCommand } from './parley-workload.js';
import { assertEveryScenarioPassed } from './replay-report-check.js';
import { writeSyntheticSuite } from './synthetic-suite.js';

const folders: string[] = [];
function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-test-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Replays the suite through the real `parley` bin in a temp working directory. */
async function replay(suiteDir: string): Promise<{ exitCode: number | null; reportPath: string; log: string }> {
  const work = temporaryFolder();
  const outDir = join(work, 'out');
  const logFile = join(work, 'run.log');
  const measurement = await measureCommand(parleyReplayCommand(suiteDir, { cwd: work, outDir, logFile }));
  return { exitCode: measurement.exitCode, reportPath: join(outDir, 'report.json'), log: readFileSync(logFile, 'utf8') };
}

describe('writeSyntheticSuite', () => {
  it('writes a suite whose every scenario passes when the real CLI replays it', async () => {
    const suite = writeSyntheticSuite({ dir: join(temporaryFolder(), 'suite'), scenarioCount: 3 });
    expect(suite.scenarioIds).toEqual(['s_000001', 's_000002', 's_000003']);
    expect(readdirSync(join(suite.dir, 'recordings')).sort()).toEqual(['s_000001.jsonl', 's_000002.jsonl', 's_000003.jsonl']);
    const recorded = readFileSync(join(suite.dir, 'recordings', 's_000001.jsonl'), 'utf8').trim().split('\n');
    expect(recorded).toHaveLength(suite.callsPerScenario);

    const run = await replay(suite.dir);
    expect(run.exitCode, run.log).toBe(0);
    expect(() => assertEveryScenarioPassed(run.reportPath, suite.scenarioIds)).not.toThrow();
    const report = JSON.parse(readFileSync(run.reportPath, 'utf8'));
    const userTurns = report.results[0].transcript.turns.filter((turn: { role: string }) => turn.role === 'user');
    expect(userTurns).toHaveLength(6);
  });

  it('fails loudly, naming the replay miss, once the requests no longer match the recordings', async () => {
    const suite = writeSyntheticSuite({ dir: join(temporaryFolder(), 'suite'), scenarioCount: 2 });
    // A changed system prompt changes every request key, as an engine change of the request shape would.
    appendFileSync(join(suite.dir, 'prompts', 'assistant.md'), 'One more rule.\n');

    const run = await replay(suite.dir);
    expect(run.exitCode).toBe(1);
    expect(() => assertEveryScenarioPassed(run.reportPath, suite.scenarioIds)).toThrow(/2 of 2 synthetic scenarios did not pass[\s\S]*recording miss/);
  });

  it('writes the same bytes on every generation', () => {
    const first = writeSyntheticSuite({ dir: join(temporaryFolder(), 'suite'), scenarioCount: 2 });
    const second = writeSyntheticSuite({ dir: join(temporaryFolder(), 'suite'), scenarioCount: 2 });
    for (const file of ['parley.yaml', 'scenarios/s_000002.yaml', 'recordings/s_000002.jsonl']) {
      expect(readFileSync(join(second.dir, file), 'utf8')).toBe(readFileSync(join(first.dir, file), 'utf8'));
    }
  });

  it('refuses a scenario count that is not a positive integer', () => {
    expect(() => writeSyntheticSuite({ dir: join(temporaryFolder(), 'suite'), scenarioCount: 0 })).toThrow(RangeError);
  });
});
