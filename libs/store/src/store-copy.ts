import { existsSync } from 'node:fs';
import { ConfigError } from '@parley/core';
import { openDatabase } from './open-database.js';
import { openSql } from './open-sql.js';
import { parseDatabaseUrl } from './sql/database-url.js';
import { sqliteSync } from './sql/sqlite-sync.js';
import type { SqlRow, SqlValue, SyncSql } from './sql/sync-sql.js';

/** One table's part of a copy. */
interface TableCopied {
  table: string;
  /** Rows read from the source. */
  rows: number;
  /** Rows added to the target. */
  copied: number;
  /** With `merge`: rows whose key the target already had, kept as the target had them. */
  kept: number;
}

export interface StoreCopyOptions {
  /** Add to a target that already holds rows, keeping the target's row wherever both have a key. */
  merge?: boolean;
  /** Called after each table is written (inside the target's transaction). */
  onTable?: (done: TableCopied, index: number, total: number) => void;
}

export interface StoreCopyOutcome {
  tables: TableCopied[];
  copied: number;
  kept: number;
}

/** Rows read from the source per statement. */
const pageRows = 500;
/** Rows per INSERT: few round trips on PostgreSQL, under SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
const insertRows = 100;
const maxParameters = 30_000;

interface TableShape {
  name: string;
  columns: string[];
  /** The primary key's columns (empty: the table has none). */
  key: string[];
  /** A unique index or primary key exists: ON CONFLICT can tell a row the target has. */
  keyed: boolean;
}

/**
 * Copies every table of one store into another (`parley store copy`, docs/team-store.md): one of
 * the two is the SQLite file, the other PostgreSQL, both already at this Parley's schema version
 * (their open functions migrate them). Tables go in schema order (a table after the tables its
 * foreign keys name), rows in pages and multi-row INSERTs, all in ONE transaction on the target:
 * a copy that fails or is killed leaves the target as it was. The source is read in one
 * transaction too, so the copy is one moment's state of it.
 *
 * Without `merge`, a target holding any row is refused (exit 2) before anything is written. With
 * it, a row whose key (primary key or unique index) the target has is kept as the target has
 * it (`ON CONFLICT DO NOTHING`); in a table without a key (`judge_spend`), a row equal in every
 * column to one of the target's is the same row and is not added twice.
 */
export function copyStore(from: SyncSql, to: SyncSql, options: StoreCopyOptions = {}): StoreCopyOutcome {
  if (from.dialect === to.dialect) throw new ConfigError(`store copy goes between the local file and PostgreSQL, not ${from.shown} to ${to.shown}`);
  const sqlite = from.dialect === 'sqlite' ? from : to;
  const tables = tableShapes(sqlite);
  checkTarget(to === sqlite ? from : to, tables);
  if (options.merge !== true) {
    const holding = tables.filter((table) => to.get(`SELECT 1 AS one FROM ${table.name} LIMIT 1`) !== undefined).map((table) => table.name);
    if (holding.length > 0) {
      throw new ConfigError(
        `${to.shown} already holds rows (${holding.join(', ')}): copy into an empty store, or pass --merge to add only the rows it does not have`,
      );
    }
  }
  const readSource = (work: () => StoreCopyOutcome): StoreCopyOutcome =>
    from.transaction(() => {
      // One snapshot of the source for the whole copy (PostgreSQL reads each statement's own by default).
      if (from.dialect === 'postgres') from.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      return work();
    });
  return readSource(() =>
    to.transaction(() => {
      const done: TableCopied[] = [];
      tables.forEach((table, index) => {
        const copied = copyTable(from, to, table, options.merge === true);
        done.push(copied);
        options.onTable?.(copied, index, tables.length);
      });
      return { tables: done, copied: done.reduce((sum, table) => sum + table.copied, 0), kept: done.reduce((sum, table) => sum + table.kept, 0) };
    }),
  );
}

function copyTable(from: SyncSql, to: SyncSql, table: TableShape, merge: boolean): TableCopied {
  const columns = table.columns.map(quoted).join(', ');
  const order = (table.key.length > 0 ? table.key : table.columns).map(quoted).join(', ');
  const perInsert = Math.max(1, Math.min(insertRows, Math.floor(maxParameters / table.columns.length)));
  // A keyed table lets the database tell the rows the target has; a table without a key is compared whole.
  const existing = merge && !table.keyed ? new Set(to.all(`SELECT ${columns} FROM ${table.name}`).map((row) => rowText(row, table.columns))) : undefined;
  const outcome: TableCopied = { table: table.name, rows: 0, copied: 0, kept: 0 };
  for (let offset = 0; ; offset += pageRows) {
    const page = from.all(`SELECT ${columns} FROM ${table.name} ORDER BY ${order} LIMIT ? OFFSET ?`, [pageRows, offset]);
    outcome.rows += page.length;
    const fresh = existing === undefined ? page : page.filter((row) => !existing.has(rowText(row, table.columns)));
    outcome.kept += page.length - fresh.length;
    for (let start = 0; start < fresh.length; start += perInsert) {
      const rows = fresh.slice(start, start + perInsert);
      const placeholders = rows.map(() => `(${table.columns.map(() => '?').join(', ')})`).join(', ');
      const values = rows.flatMap((row) => table.columns.map((column) => row[column] as SqlValue));
      const changes = to.run(`INSERT INTO ${table.name} (${columns}) VALUES ${placeholders}${merge ? ' ON CONFLICT DO NOTHING' : ''}`, values).changes;
      outcome.copied += changes;
      outcome.kept += rows.length - changes;
    }
    if (page.length < pageRows) return outcome;
  }
}

/**
 * The store's tables as the SQLite side has them (both sides have the same tables and columns:
 * pg-migrations.test.ts keeps the two schemas equal), parents before the tables that refer to them.
 */
function tableShapes(sqlite: SyncSql): TableShape[] {
  const names = sqlite
    .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")
    .map((row) => row.name);
  const shapes = new Map<string, TableShape & { parents: string[] }>();
  for (const name of names) {
    const info = sqlite.all<{ name: string; pk: number }>(`SELECT name, pk FROM pragma_table_info('${name}') ORDER BY cid`);
    const key = info.filter((column) => column.pk > 0).sort((left, right) => left.pk - right.pk).map((column) => column.name);
    const unique = sqlite.get(`SELECT 1 AS one FROM pragma_index_list('${name}') WHERE "unique" = 1`) !== undefined;
    const parents = sqlite.all<{ table: string }>(`SELECT DISTINCT "table" FROM pragma_foreign_key_list('${name}')`).map((row) => row.table);
    shapes.set(name, { name, columns: info.map((column) => column.name), key, keyed: key.length > 0 || unique, parents });
  }
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  const place = (name: string, path: readonly string[]): void => {
    if (placed.has(name) || path.includes(name)) return;
    const shape = shapes.get(name);
    if (shape === undefined) return;
    for (const parent of shape.parents) place(parent, [...path, name]);
    placed.add(name);
    ordered.push({ name: shape.name, columns: shape.columns, key: shape.key, keyed: shape.keyed });
  };
  for (const name of names) place(name, []);
  return ordered;
}

/** The PostgreSQL side must have every table and column the SQLite side has (same schema version). */
function checkTarget(pg: SyncSql, tables: readonly TableShape[]): void {
  const present = new Set(
    pg
      .all<{ table_name: string; column_name: string }>(
        'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()',
      )
      .map((row) => `${row.table_name}.${row.column_name}`),
  );
  const missing = tables.flatMap((table) => table.columns.map((column) => `${table.name}.${column}`)).filter((column) => !present.has(column));
  if (missing.length > 0) throw new ConfigError(`${pg.shown} has no ${missing.slice(0, 5).join(', ')}: the two stores are not at the same schema version`);
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A row's values as one text, for telling equal rows of a table without a key. */
function rowText(row: SqlRow, columns: readonly string[]): string {
  return JSON.stringify(columns.map((column) => row[column] ?? null));
}

/** Which way `parley store copy` goes: into the team store, or from it into the local file. */
export interface StoreCopyRequest {
  /** The local store, `.parley/parley.db`. */
  localPath: string;
  /** `--to URL` (local → PostgreSQL) or `--from URL` (PostgreSQL → local). */
  direction: 'to' | 'from';
  url: string;
  merge?: boolean;
  onTable?: StoreCopyOptions['onTable'];
  /** How the person runs Parley (`npx parley`), for the command an error names; `parley` when not given. */
  parley?: string;
}

/** Opens the two stores (each brought to this Parley's schema version), copies, closes both. */
export function copyStoreBetween(request: StoreCopyRequest): StoreCopyOutcome & { from: string; to: string } {
  const shownUrl = parseDatabaseUrl(request.url, `--${request.direction}`).shown;
  if (request.direction === 'to' && !existsSync(request.localPath)) {
    throw new ConfigError(`there is no run history at ${request.localPath} to copy (run \`${request.parley ?? 'parley'} store copy\` in the project that holds .parley/)`);
  }
  // An existing local file first (a damaged one is reported before any connection is made); a new
  // one only once the server answered, so that a failed connection leaves no empty file behind.
  const existed = existsSync(request.localPath);
  let team = existed ? undefined : openSql(request.localPath, request.url);
  let local: SyncSql;
  try {
    local = sqliteSync(openDatabase(request.localPath), request.localPath);
  } catch (error) {
    team?.close();
    throw error;
  }
  try {
    team ??= openSql(request.localPath, request.url);
    const [from, to] = request.direction === 'to' ? [local, team] : [team, local];
    const outcome = copyStore(from, to, { ...(request.merge === true ? { merge: true } : {}), ...(request.onTable ? { onTable: request.onTable } : {}) });
    return { from: request.direction === 'to' ? request.localPath : shownUrl, to: request.direction === 'to' ? shownUrl : request.localPath, ...outcome };
  } finally {
    team?.close();
    local.close();
  }
}
