/**
 * `items` in slices of `size`, in order: a multi-row statement per slice keeps the bound
 * parameters under both databases' limits (SQLite 32,766; PostgreSQL 65,535) while PostgreSQL
 * pays one round trip per slice instead of one per row.
 */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
