// Prints the tenant schemas that exist now, as a JSON list (used by the integration test).
import { connect, listTenants } from '../lib/tenant-db.mjs';

const pool = connect();
try {
  console.log(JSON.stringify(await listTenants(pool)));
} finally {
  await pool.end();
}
