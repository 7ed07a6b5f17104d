import { openSql } from '../open-sql.js';
import { parseDatabaseUrl } from '../sql/database-url.js';
import { openPgSync } from '../sql/pg-sync.js';
import type { SyncSql } from '../sql/sync-sql.js';
import type { DriverDatabase } from './each-driver.js';

/**
 * `count` handles on the test's store, each on a connection of its own (stand-ins for processes):
 * SQLite connections to the same file, or PostgreSQL connections (openSql shares one per URL in a
 * process, so these are opened apart from it, after openSql has migrated the database).
 */
export function separateHandles(database: DriverDatabase, count: number): SyncSql[] {
  const first = openSql(database.path);
  if (database.url === undefined) return [first, ...Array.from({ length: count - 1 }, () => openSql(database.path))];
  first.close();
  const url = parseDatabaseUrl(database.url);
  return Array.from({ length: count }, () => openPgSync(url));
}
