// Tenant schemas of the demo booking service: one PostgreSQL schema per tenant, holding that
// tenant's conversations and bookings. Parley's isolation hooks create a fresh one per scenario
// (setup), drop it afterwards (teardown) and drop what a crashed run left (sweep).
import pg from 'pg';

/** Tenant names Parley gives scenarios: test_tenant_<scenario_id>_<8 hex>. */
const TENANT = /^test_tenant_[a-z0-9_-]+$/;
export const TEST_TENANT_PREFIX = 'test_tenant_';

/** The connection string: DATABASE_URL, else the standard PG* variables. */
export function connect() {
  const connectionString = process.env.DATABASE_URL;
  return new pg.Pool(connectionString ? { connectionString, max: 10 } : { max: 10 });
}

/** A tenant name checked and quoted for use as an SQL identifier (names may hold `-`). */
export function schemaOf(tenant) {
  if (typeof tenant !== 'string' || !TENANT.test(tenant)) {
    throw new Error(`not a tenant name: ${JSON.stringify(tenant)} (expected test_tenant_<id>_<hex>)`);
  }
  return `"${tenant}"`;
}

export async function createTenant(pool, tenant) {
  const schema = schemaOf(tenant);
  await pool.query(`
    CREATE SCHEMA ${schema};
    CREATE TABLE ${schema}.messages (
      conversation_id TEXT NOT NULL, position SERIAL, role TEXT NOT NULL, content TEXT NOT NULL);
    CREATE TABLE ${schema}.bookings (
      id INTEGER GENERATED ALWAYS AS IDENTITY (START WITH 1001) PRIMARY KEY,
      conversation_id TEXT NOT NULL, slot TEXT NOT NULL, customer TEXT NOT NULL);`);
}

export async function dropTenant(pool, tenant) {
  await pool.query(`DROP SCHEMA IF EXISTS ${schemaOf(tenant)} CASCADE`);
}

export async function tenantExists(pool, tenant) {
  const result = await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [tenant]);
  return result.rowCount > 0;
}

/** Every tenant schema in the database (what a sweep drops, and what a test expects to be gone). */
export async function listTenants(pool) {
  const result = await pool.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'test\\_tenant\\_%' ORDER BY nspname");
  return result.rows.map((row) => row.nspname);
}
