/**
 * `PARLEY_DATABASE_URL=postgres://… npm run bench:store -- [--rows 1000] [--runs 5]`: what writing
 * a run's results costs in SQLite against PostgreSQL (docs/decisions.md, "A team store in
 * PostgreSQL"). Each measured write is one run row and `--rows` scenario results (one row per
 * scenario, a 16-turn transcript of about 4 KB each, as a replay stores them) in one transaction,
 * through the same SQL executor interface:
 *
 * - SQLite: a fresh `.parley/parley.db` in a temp folder, opened as the store opens it (WAL,
 *   synchronous NORMAL);
 * - PostgreSQL, one INSERT per row (as the store writes today), and batched 100 rows per INSERT.
 *
 * PostgreSQL runs in a database the bench creates on the server of the URL (the user needs
 * CREATEDB) and drops at the end. Prints the median of `--runs` writes of each kind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '@parley/store';
import { migratePg, openPgExecutor, parseDatabaseUrl, sqliteExecutor, type SqlExecutor } from '@parley/store/sql';
import { median } from './measure-command.js';

const columns = [
  'run_id', 'scenario_id', 'attempt', 'agent', 'gate', 'tags_json', 'metadata_only', 'status', 'reason',
  'input_tokens', 'output_tokens', 'cost_usd', 'calls', 'transcript_json',
] as const;

const transcript = JSON.stringify({
  turns: Array.from({ length: 16 }, (_, turn) => ({
    role: turn % 2 === 0 ? 'user' : 'assistant',
    content: 'Habari! Nataka massage Jumamosi asubuhi saa nne, tafadhali. '.repeat(4),
    turn,
  })),
  ended_by: 'max_turns',
});

function rowValues(runId: string, index: number): (string | number)[] {
  return [runId, `s_${String(index).padStart(6, '0')}`, 0, 'booking', 'blocking', '[]', 0, 'pass', 'all expectations met', 120, 40, 0, 7, transcript];
}

async function writeRun(executor: SqlExecutor, runId: string, rows: number, perStatement: number): Promise<number> {
  const started = process.hrtime.bigint();
  await executor.transaction(async (tx) => {
    await tx.run(
      'INSERT INTO runs (id, suite, mode, started_at, parley_version, options_json, out_dir) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [runId, 'bench', 'replay', new Date().toISOString(), '0.1.0', '{}', '/tmp/bench'],
    );
    const one = `(${columns.map(() => '?').join(', ')})`;
    for (let first = 0; first < rows; first += perStatement) {
      const count = Math.min(perStatement, rows - first);
      const values = Array.from({ length: count }, (_, offset) => rowValues(runId, first + offset)).flat();
      await tx.run(`INSERT INTO scenario_results (${columns.join(', ')}) VALUES ${Array.from({ length: count }, () => one).join(', ')}`, values);
    }
  });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function timeWrites(label: string, executor: SqlExecutor, rows: number, runs: number, perStatement: number): Promise<void> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) times.push(await writeRun(executor, `${label}-${run}`, rows, perStatement));
  const ms = median(times);
  console.log(`${label.padEnd(32)} median ${ms.toFixed(1).padStart(8)} ms  (${((rows / ms) * 1000).toFixed(0)} rows/s; runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms)`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000' }, runs: { type: 'string', default: '5' } } });
  const rows = Number(values.rows);
  const runs = Number(values.runs);
  const given = process.env.PARLEY_DATABASE_URL;
  if (given === undefined || given === '') {
    console.error('bench:store needs PARLEY_DATABASE_URL (a server where it may create a database), e.g.\n' +
      '  export PARLEY_DATABASE_URL="$(examples/booking-service/scripts/start-postgres.sh)"');
    process.exit(2);
  }
  console.log(`${rows} scenario results per run, one transaction, median of ${runs}`);

  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-store-'));
  const sqlite = sqliteExecutor(openDatabase(join(folder, 'parley.db')));
  try {
    await timeWrites('sqlite, one row per INSERT', sqlite, rows, runs, 1);
  } finally {
    await sqlite.close();
    rmSync(folder, { recursive: true, force: true });
  }

  const server = parseDatabaseUrl(given);
  const admin = await openPgExecutor(server, { maxConnections: 1 });
  const name = `parley_bench_${process.pid}`;
  await admin.run(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(server.connectionString);
    url.pathname = `/${name}`;
    const parsed = parseDatabaseUrl(url.href);
    const pg = await openPgExecutor(parsed);
    try {
      await migratePg(pg, parsed.shown);
      await timeWrites('postgres, one row per INSERT', pg, rows, runs, 1);
      await timeWrites('postgres, 100 rows per INSERT', pg, rows, runs, 100);
    } finally {
      await pg.close();
    }
  } finally {
    await admin.run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  }
}

await main();
