// The team store's groundwork (docs/decisions.md, "A team store in PostgreSQL"), exported apart
// from the store (`@parley/store/sql`) until the store's consumers move onto it.
export type { SqlExecutor } from './executor.js';
export { sqliteExecutor } from './sqlite-executor.js';
export { openPgExecutor } from './pg-executor.js';
export { parseDatabaseUrl } from './database-url.js';
export { migratePg } from './pg-migrations.js';
