// One process of the migration race test: connects to the PostgreSQL store (compiled library, as
// the CLI would), prints "ready", waits for a line on stdin so that every racer starts at once,
// migrates and prints the schema version it ended at.
import { createInterface } from 'node:readline';
import { migratePgSync, openPgSync, parseDatabaseUrl } from '@parley/store/sql';

const sql = openPgSync(parseDatabaseUrl(process.argv[2]));
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once('line', resolve));
lines.close();
try {
  process.stdout.write(`version ${migratePgSync(sql)}\n`);
} finally {
  sql.close();
}
