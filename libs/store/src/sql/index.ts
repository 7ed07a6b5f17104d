// The team store's driver level (docs/decisions.md, "A team store in PostgreSQL"), exported apart
// from the store (`@parley/store/sql`) for tools and tests that reach a PostgreSQL store directly.
export { openPgSync } from './pg-sync.js';
export { parseDatabaseUrl } from './database-url.js';
export { migratePgSync } from './pg-migrations.js';
