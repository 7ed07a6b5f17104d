// isolation.setup: a fresh schema for this scenario's tenant ($PARLEY_TENANT).
import { connect, createTenant } from '../lib/tenant-db.mjs';

const pool = connect();
try {
  await createTenant(pool, process.env.PARLEY_TENANT);
  console.log(`created schema ${process.env.PARLEY_TENANT} for scenario ${process.env.PARLEY_SCENARIO_ID}`);
} finally {
  await pool.end();
}
