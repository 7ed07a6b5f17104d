import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { databaseUrlVariable } from '../store-location.js';
import { freshDatabase, type PostgresServer, testPostgresServer } from './postgres-server.js';

/** The store's two drivers; a store test runs once with each (`describe.each(storeDrivers)`). */
export const storeDrivers = ['sqlite', 'postgres'] as const;
export type StoreDriver = (typeof storeDrivers)[number];

export interface DriverDatabase {
  /** A fresh folder for the test; `<folder>/.parley/parley.db` is the store path to open. */
  readonly folder: string;
  /** The path to pass to the store's open functions (on PostgreSQL it anchors run folders only). */
  readonly path: string;
  /** The PostgreSQL URL the store opens (PARLEY_DATABASE_URL during the test), or undefined for SQLite. */
  readonly url: string | undefined;
}

/**
 * Gives each test of the enclosing describe a fresh store of `driver`: a new folder, and on
 * PostgreSQL a new empty database that PARLEY_DATABASE_URL names while the test runs (so the store's
 * own open functions, and `parley` processes the test starts with `process.env`, reach it). The
 * server is CI's (PARLEY_TEST_DATABASE_URL) or a throwaway cluster this file starts.
 */
export function useStoreDriver(driver: StoreDriver): DriverDatabase {
  let server: PostgresServer | undefined;
  let folder = '';
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  const before = process.env[databaseUrlVariable];
  if (driver === 'postgres') {
    beforeAll(async () => {
      server = await testPostgresServer();
    }, 120_000);
    afterAll(() => server?.stop());
  }
  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), `parley-store-${driver}-`));
    if (driver === 'postgres') {
      const database = await freshDatabase(server!);
      url = database.url;
      drop = database.drop;
      process.env[databaseUrlVariable] = url;
    } else {
      url = undefined;
      delete process.env[databaseUrlVariable];
    }
  }, 60_000);
  afterEach(async () => {
    if (before === undefined) delete process.env[databaseUrlVariable];
    else process.env[databaseUrlVariable] = before;
    await drop?.();
    drop = undefined;
    rmSync(folder, { recursive: true, force: true });
  }, 60_000);
  return {
    get folder() {
      return folder;
    },
    get path() {
      return join(folder, '.parley', 'parley.db');
    },
    get url() {
      return url;
    },
  };
}
