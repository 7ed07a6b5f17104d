// One process of the migration race test: connects to the PostgreSQL store (compiled library, as
// the CLI would), prints "ready", waits for a line on stdin so that every racer starts at once,
// migrates and prints the schema version it ended at.
import { createInterface } from 'node:readline';
import { migratePg, openPgExecutor, parseDatabaseUrl } from '@parley/store/sql';

const url = parseDatabaseUrl(process.argv[2]);
const executor = await openPgExecutor(url, { maxConnections: 1 });
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once('line', resolve));
lines.close();
try {
  process.stdout.write(`version ${await migratePg(executor, url.shown)}\n`);
} finally {
  await executor.close();
}
