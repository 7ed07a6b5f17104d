import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
// The store's test support (a PostgreSQL database per test, a store filled in every table) is not
// part of @parley/store's API: shared by path on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { useStoreDriver } from '../../../../libs/store/src/test-support/each-driver.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { everyRow, fillEveryTable, openLocalStore, storeTables } from '../../../../libs/store/src/test-support/every-table.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { parseDatabaseUrl } from '../../../../libs/store/src/sql/database-url.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { migratePgSync } from '../../../../libs/store/src/sql/pg-migrations.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { openPgSync } from '../../../../libs/store/src/sql/pg-sync.js';
import { main } from '../main.js';
import { captureOutput } from '../test-support/capture-output.js';
import { REPO_ROOT } from '../test-support/example-copy.js';

async function parley(argv: string[], cwd: string) {
  const output = captureOutput();
  const code = await main(argv, { cwd, env: { NO_COLOR: '1' }, output, clock: manualClock(), random: seededRandom(7), parleyCommand: () => 'npx parley' });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

const folders: string[] = [];
function project(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-store-copy-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function localRows(folder: string): { tables: string[]; rows: Record<string, string[]> } {
  const path = join(folder, '.parley', 'parley.db');
  const sql = openLocalStore(path);
  try {
    const tables = storeTables(sql);
    return { tables, rows: everyRow(sql, tables) };
  } finally {
    sql.close();
  }
}

describe('parley store copy', () => {
  const database = useStoreDriver('postgres');
  const password = 'pa55-w0rd-never-shown';
  /** The test server lets its user in without a password; one in the URL must still never be printed. */
  const withPassword = (): string => {
    const url = new URL(database.url!);
    url.password = password;
    return url.href;
  };

  it('copies a history into PostgreSQL and back into another project, row for row, the password never shown', async () => {
    const first = project();
    const path = join(first, '.parley', 'parley.db');
    const seeded = openLocalStore(path);
    fillEveryTable(seeded, 30);
    seeded.close();
    const { tables, rows } = localRows(first);

    const to = await parley(['store', 'copy', '--to', withPassword(), '--format', 'json'], first);
    expect(to.code, to.stderr).toBe(0);
    const summary = JSON.parse(to.stdout) as { from: string; to: string; copied: number; kept: number; tables: Array<{ table: string; rows: number }> };
    expect(summary).toMatchObject({ from: path, copied: 30 * tables.length, kept: 0 });
    expect(summary.to).toContain(':***@');
    expect(summary.tables.map((table) => table.table).sort()).toEqual([...tables].sort());
    // Progress: one plain line per table on stderr.
    expect(to.stderr.split('\n').filter((line) => /^store copy: \d+\/\d+ \w+: 30 of 30 rows copied$/.test(line))).toHaveLength(tables.length);

    const second = project();
    const from = await parley(['store', 'copy', '--from', withPassword()], second);
    expect(from.code, from.stderr).toBe(0);
    expect(from.stdout).toMatch(/^copied \d+ rows of \d+ tables from postgres:\/\/postgres:\*\*\*@/);
    expect(localRows(second).rows).toEqual(rows);

    // Again into the same store: refused, nothing written, exit 2; with --merge every row is kept.
    const again = await parley(['store', 'copy', '--to', withPassword()], first);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already holds rows .*pass --merge/);
    const merged = await parley(['store', 'copy', '--to', withPassword(), '--merge', '--format', 'json'], first);
    expect(merged.code, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({ copied: 0, kept: 30 * tables.length });

    for (const result of [to, from, again, merged]) expect(result.stdout + result.stderr).not.toContain(password);
  });

  it('a copy killed (SIGKILL) midway leaves the PostgreSQL target as it was, and a later copy is whole', async () => {
    const folder = project();
    const seeded = openLocalStore(join(folder, '.parley', 'parley.db'));
    fillEveryTable(seeded, 50);
    seeded.close();
    const { tables, rows } = localRows(folder);
    // Another session locks the outbox against inserts: the copy writes the tables before it, then waits there.
    const holder = openPgSync(parseDatabaseUrl(database.url!));
    try {
      migratePgSync(holder);
      holder.exec('BEGIN');
      holder.exec('LOCK TABLE outbox IN EXCLUSIVE MODE');
      const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/bin/parley.js'), 'store', 'copy', '--to', database.url!], {
        cwd: folder,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const closed = new Promise<number | null>((resolve) => child.on('close', (_code, signal) => resolve(signal === 'SIGKILL' ? -9 : _code)));
      let stderr = '';
      await new Promise<void>((resolve) => {
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          if (/store copy: \d+\/\d+ runs: 50 of 50 rows copied\n/.test(stderr)) resolve();
        });
        child.on('close', () => resolve());
      });
      child.kill('SIGKILL');
      expect(await closed, stderr).toBe(-9);
      holder.exec('ROLLBACK');
      for (const table of tables) expect([table, holder.get<{ count: number }>(`SELECT COUNT(*) AS count FROM ${table}`)?.count]).toEqual([table, 0]);
    } finally {
      holder.close();
    }
    const again = await parley(['store', 'copy', '--to', database.url!, '--format', 'json'], folder);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ copied: 50 * tables.length });
    const back = project();
    expect((await parley(['store', 'copy', '--from', database.url!], back)).code).toBe(0);
    expect(localRows(back).rows).toEqual(rows);
  }, 120_000);

  it('a server that is not there, a URL of another kind, or no direction: exit 2, one line, no password', async () => {
    const folder = project();
    const unreachable = await parley(['store', 'copy', '--from', `postgres://parley:${password}@127.0.0.1:1/none`], folder);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/postgres:\/\/parley:\*\*\*@127\.0\.0\.1:1\/none/);
    const other = await parley(['store', 'copy', '--to', `mysql://root:${password}@db/x`], folder);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--to must start with postgres:\/\/ or postgresql:\/\//);
    const neither = await parley(['store', 'copy'], folder);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/needs one of --to URL .* or --from URL/);
    const nothing = await parley(['store', 'copy', '--to', withPassword()], folder);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/there is no run history at .*parley\.db to copy \(run `npx parley store copy` in the project/);
    for (const result of [unreachable, other, neither, nothing]) expect(result.stdout + result.stderr).not.toContain(password);
  });
});
