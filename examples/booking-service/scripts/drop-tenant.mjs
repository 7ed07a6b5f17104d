// isolation.teardown: drops this scenario's tenant schema, whatever happened in the scenario.
import { connect, dropTenant } from '../lib/tenant-db.mjs';

const pool = connect();
try {
  await dropTenant(pool, process.env.PARLEY_TENANT);
  console.log(`dropped schema ${process.env.PARLEY_TENANT}`);
} finally {
  await pool.end();
}
