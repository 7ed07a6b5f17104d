// isolation.sweep: once per run, drops every tenant schema a crashed run left behind.
import { connect, dropTenant, listTenants } from '../lib/tenant-db.mjs';

const pool = connect();
try {
  const leftovers = await listTenants(pool);
  for (const tenant of leftovers) await dropTenant(pool, tenant);
  console.log(`sweep (run ${process.env.PARLEY_RUN_ID}): dropped ${leftovers.length} leftover tenant schema(s)`);
} finally {
  await pool.end();
}
