import type { SqlValue, SyncSql } from './sync-sql.js';

/** Rows per INSERT: few round trips on PostgreSQL, and bound values far below either database's limit. */
const rowsPerStatement = 100;

/**
 * Inserts `rows` into `table` with one multi-row `INSERT … VALUES (…), (…)` per 100 rows, in the
 * caller's transaction: on PostgreSQL each statement is a round trip to the server, so a batch of
 * results costs a few statements, not one per row. Each row gives a value for every column, in
 * `columns` order. Returns how many rows were inserted.
 */
export function insertRows(sql: SyncSql, table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): number {
  const placeholders = `(${columns.map(() => '?').join(', ')})`;
  let inserted = 0;
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const chunk = rows.slice(start, start + rowsPerStatement);
    const values: SqlValue[] = [];
    for (const row of chunk) {
      if (row.length !== columns.length) throw new RangeError(`a row of ${table} has ${row.length} values for ${columns.length} columns`);
      values.push(...row);
    }
    inserted += sql.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => placeholders).join(', ')}`, values).changes;
  }
  return inserted;
}
