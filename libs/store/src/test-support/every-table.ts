import { openDatabase } from '../open-database.js';
import { sqliteSync } from '../sql/sqlite-sync.js';
import type { SqlRow, SqlValue, SyncSql } from '../sql/sync-sql.js';

type Column = { name: string; type: string; notnull: number; pk: number };
type ForeignKey = { id: number; table: string; from: string; to: string };

/** The SQLite store at `path` (created when missing), whatever PARLEY_DATABASE_URL says. */
export function openLocalStore(path: string): SyncSql {
  return sqliteSync(openDatabase(path), path);
}

/** Every table of a SQLite store (its own bookkeeping left out), by name. */
export function storeTables(sqlite: SyncSql): string[] {
  return sqlite.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name").map((row) => row.name);
}

/**
 * Fills every table of a SQLite store with `count` rows, whatever tables the schema has (a table
 * added later is filled too): row `i` of a table refers to row `i` of each table its foreign keys
 * name; integers include large ones (up to 2^31: some PostgreSQL columns are INTEGER), texts quotes and non-ASCII, nullable columns some NULLs.
 */
export function fillEveryTable(sqlite: SyncSql, count: number): void {
  const tables = storeTables(sqlite);
  const filled = new Map<string, SqlRow[]>();
  const fill = (table: string): void => {
    if (filled.has(table)) return;
    const keys = sqlite.all<ForeignKey>(`SELECT id, "table", "from", "to" FROM pragma_foreign_key_list('${table}')`);
    for (const key of keys) if (key.table !== table) fill(key.table);
    const columns = sqlite.all<Column>(`SELECT name, type, "notnull", pk FROM pragma_table_info('${table}') ORDER BY cid`);
    const rows: SqlRow[] = [];
    for (let index = 0; index < count; index += 1) {
      const row: Record<string, SqlValue> = {};
      for (const column of columns) {
        const key = keys.find((candidate) => candidate.from === column.name);
        if (key !== undefined) row[column.name] = filled.get(key.table)![index]![key.to] as SqlValue;
        else row[column.name] = valueOf(column, index);
      }
      rows.push(row);
    }
    sqlite.transaction(() => {
      for (const row of rows) {
        const names = Object.keys(row);
        sqlite.run(`INSERT INTO ${table} (${names.map((name) => `"${name}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`, names.map((name) => row[name] as SqlValue));
      }
    });
    filled.set(table, rows);
  };
  for (const table of tables) fill(table);
}

function valueOf(column: Column, index: number): SqlValue {
  if (column.notnull === 0 && column.pk === 0 && index % 5 === 4) return null;
  const type = column.type.toUpperCase();
  if (type.includes('INT')) return index % 3 === 0 ? 2_000_000_000 + index : index;
  if (type.includes('REAL') || type.includes('DOUB')) return index + 0.25;
  return `${column.name} ${index} 'single' "double" ü ñ 😀`;
}

/** Every row of every table, each table's rows sorted (as JSON: the two databases collate text differently), for comparing two stores. */
export function everyRow(sql: SyncSql, tables: readonly string[]): Record<string, string[]> {
  const rows: Record<string, string[]> = {};
  for (const table of tables) {
    rows[table] = sql
      .all(`SELECT * FROM ${table}`)
      .map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).sort(([left], [right]) => (left < right ? -1 : 1)))))
      .sort();
  }
  return rows;
}
