/**
 * `node tools/bench/dist/replay-floor.js SUITE OUT_DIR`: the floor of a replay, the work no replay
 * of SUITE can avoid, done as plainly as Node allows. It reads and parses every scenario file
 * (YAML) and every recording (JSON lines) of the suite, writes one SQLite row per scenario in one
 * transaction into OUT_DIR/floor.db, and writes OUT_DIR/report.json with one result per scenario.
 * No checks, no masking, no judging, no event log: the benchmark (`--floor`) times it beside
 * `parley run --mode replay` on the same suite, so the ratio says what Parley's own work costs.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import type Database from 'better-sqlite3';
import { parse } from 'yaml';

interface FloorResult {
  scenario_id: string;
  status: 'pass';
  /** Recorded calls of the scenario: the lines of its recording. */
  calls: number;
  /** The last recorded answer's text length: proof the lines were parsed, not only counted. */
  answer_chars: number;
}

/** Replays `suiteDir`'s files as the floor does; returns how many scenarios it wrote. */
export function replayFloor(suiteDir: string, outDir: string): number {
  mkdirSync(outDir, { recursive: true });
  const scenarioDir = join(suiteDir, 'scenarios');
  const results: FloorResult[] = [];
  for (const file of readdirSync(scenarioDir).filter((name) => name.endsWith('.yaml')).sort()) {
    const scenario = parse(readFileSync(join(scenarioDir, file), 'utf8')) as { id?: string };
    const id = scenario.id ?? basename(file, '.yaml');
    const lines = readFileSync(join(suiteDir, 'recordings', `${id}.jsonl`), 'utf8').split('\n').filter((line) => line !== '');
    let answerChars = 0;
    for (const line of lines) {
      const entry = JSON.parse(line) as { response?: { content?: string | null } };
      answerChars = entry.response?.content?.length ?? answerChars;
    }
    results.push({ scenario_id: id, status: 'pass', calls: lines.length, answer_chars: answerChars });
  }
  // SQLite on purpose, PARLEY_DATABASE_URL or not: the floor is the bare local write the replay is compared with.
  const SqliteDatabase = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  const database = new SqliteDatabase(join(outDir, 'floor.db'));
  try {
    database.pragma('journal_mode = WAL');
    database.exec('CREATE TABLE IF NOT EXISTS results (scenario_id TEXT PRIMARY KEY, status TEXT NOT NULL, result TEXT NOT NULL)');
    const insert = database.prepare('INSERT OR REPLACE INTO results (scenario_id, status, result) VALUES (?, ?, ?)');
    database.transaction(() => {
      for (const result of results) insert.run(result.scenario_id, result.status, JSON.stringify(result));
    })();
  } finally {
    database.close();
  }
  writeFileSync(join(outDir, 'report.json'), `${JSON.stringify({ mode: 'replay', results }, null, 2)}\n`);
  return results.length;
}

const [suiteDir, outDir] = process.argv.slice(2);
if (import.meta.url === `file://${process.argv[1]}`) {
  if (suiteDir === undefined || outDir === undefined) {
    process.stderr.write('usage: node tools/bench/dist/replay-floor.js SUITE OUT_DIR\n');
    process.exitCode = 2;
  } else {
    replayFloor(suiteDir, outDir);
  }
}
