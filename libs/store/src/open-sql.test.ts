import { isConfigError } from '@parley/core';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSql } from './open-sql.js';
import { keepStoreLocal, onStoreNotice, storeExists, storeUrlFor, storeUrlFrom, useSuiteStoreSetting } from './store-location.js';
import { useStoreDriver } from './test-support/each-driver.js';

describe("where the store is: PARLEY_DATABASE_URL, or the variable parley.yaml's settings.store.url_env names", () => {
  afterEach(() => useSuiteStoreSetting(undefined));

  it('is the local SQLite file when neither is given', () => {
    expect(storeUrlFrom({})).toBeUndefined();
    expect(storeUrlFrom({ PARLEY_DATABASE_URL: '  ' })).toBeUndefined();
  });

  it('says once, to whoever listens, that PARLEY_DATABASE_URL is set but empty and which store is used instead', () => {
    const notices: string[] = [];
    const stops = [onStoreNotice((notice) => notices.push(notice))];
    try {
      expect(storeUrlFrom({ PARLEY_DATABASE_URL: 'postgres://me@localhost/mine' })).toBe('postgres://me@localhost/mine');
      expect(storeUrlFrom({})).toBeUndefined();
      expect(notices).toEqual([]);
      expect(storeUrlFrom({ PARLEY_DATABASE_URL: '' })).toBeUndefined();
      expect(storeUrlFrom({ PARLEY_DATABASE_URL: ' ' })).toBeUndefined();
      expect(notices).toEqual(['PARLEY_DATABASE_URL is set but empty: using the local store .parley/parley.db']);
      stops.push(onStoreNotice((notice) => notices.push(notice))); // the next command
      useSuiteStoreSetting({ url_env: 'TEAM_STORE_URL' });
      expect(storeUrlFrom({ PARLEY_DATABASE_URL: '', TEAM_STORE_URL: 'postgres://team@db/parley' })).toBe('postgres://team@db/parley');
      expect(notices[1]).toBe("PARLEY_DATABASE_URL is set but empty: using the team store in TEAM_STORE_URL (parley.yaml's settings.store.url_env)");
    } finally {
      for (const stop of stops) stop();
    }
  });

  it('reads the named variable when the suite names one, and PARLEY_DATABASE_URL wins when both are set', () => {
    useSuiteStoreSetting({ url_env: 'TEAM_STORE_URL' });
    expect(storeUrlFrom({ TEAM_STORE_URL: 'postgres://team@db/parley' })).toBe('postgres://team@db/parley');
    expect(storeUrlFrom({ TEAM_STORE_URL: 'postgres://team@db/parley', PARLEY_DATABASE_URL: 'postgres://me@localhost/mine' })).toBe('postgres://me@localhost/mine');
    useSuiteStoreSetting(undefined);
    expect(storeUrlFrom({ TEAM_STORE_URL: 'postgres://team@db/parley' })).toBeUndefined();
  });

  it('refuses to fall back to the local file when the named variable is unset or empty (exit 2), naming it', () => {
    useSuiteStoreSetting({ url_env: 'TEAM_STORE_URL' });
    for (const env of [{}, { TEAM_STORE_URL: '' }]) {
      let thrown: unknown;
      try {
        storeUrlFrom(env);
      } catch (error) {
        thrown = error;
      }
      expect(isConfigError(thrown)).toBe(true);
      expect((thrown as Error).message).toMatch(/settings\.store\.url_env names TEAM_STORE_URL, which is not set/);
    }
  });

  it('has a store to read: on SQLite once the file exists, with a team store always (reading commands must not skip it for want of a file)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-store-exists-'));
    const path = join(folder, '.parley', 'parley.db');
    expect(storeExists(path, {})).toBe(false);
    expect(storeExists(path, { PARLEY_DATABASE_URL: 'postgres://team@db/parley' })).toBe(true);
    useSuiteStoreSetting({ url_env: 'TEAM_STORE_URL' });
    expect(storeExists(path, { TEAM_STORE_URL: 'postgres://team@db/parley' })).toBe(true);
    useSuiteStoreSetting(undefined);
    mkdirSync(join(folder, '.parley'));
    writeFileSync(path, '');
    expect(storeExists(path, {})).toBe(true);
  });
});

describe('a store path kept local (a scratch run nobody else should see)', () => {
  afterEach(() => useSuiteStoreSetting(undefined));

  it('is the SQLite file at that path while kept, whatever team store is configured; other paths and the time after release follow the team store', () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-store-local-'));
    const scratch = join(folder, 'scratch', '..', 'parley.db');
    const other = join(folder, 'other.db');
    const team = { PARLEY_DATABASE_URL: 'postgres://team@127.0.0.1:9/parley' };
    useSuiteStoreSetting({ url_env: 'UNSET_TEAM_STORE_URL' });
    const release = keepStoreLocal(scratch);
    const again = keepStoreLocal(join(folder, 'parley.db'));
    expect(storeUrlFor(join(folder, 'parley.db'), team)).toBeUndefined();
    expect(storeUrlFor(scratch, {})).toBeUndefined();
    expect(storeUrlFor(other, team)).toBe(team.PARLEY_DATABASE_URL);
    expect(storeExists(scratch, team)).toBe(false);
    const saved = process.env.PARLEY_DATABASE_URL;
    process.env.PARLEY_DATABASE_URL = team.PARLEY_DATABASE_URL;
    try {
      // Nothing listens on port 9: opening it would fail; the kept path opens the local file instead.
      const sql = openSql(scratch);
      try {
        expect(sql.dialect).toBe('sqlite');
        expect(sql.shown).toBe(scratch);
      } finally {
        sql.close();
      }
    } finally {
      if (saved === undefined) delete process.env.PARLEY_DATABASE_URL;
      else process.env.PARLEY_DATABASE_URL = saved;
    }
    expect(storeExists(scratch, {})).toBe(true);
    release();
    release();
    expect(storeUrlFor(scratch, team)).toBeUndefined();
    again();
    expect(storeUrlFor(scratch, team)).toBe(team.PARLEY_DATABASE_URL);
  });
});

describe('a suite naming its store opens it there', () => {
  const database = useStoreDriver('postgres');
  afterEach(() => useSuiteStoreSetting(undefined));

  it('opens the PostgreSQL database the named variable holds', () => {
    const url = database.url!;
    const saved = process.env.PARLEY_DATABASE_URL;
    delete process.env.PARLEY_DATABASE_URL;
    process.env.PARLEY_TEST_TEAM_STORE = url;
    useSuiteStoreSetting({ url_env: 'PARLEY_TEST_TEAM_STORE' });
    try {
      const sql = openSql(database.path);
      try {
        expect(sql.dialect).toBe('postgres');
        expect(sql.get<{ name: string }>('SELECT current_database() AS name')?.name).toBe(new URL(url).pathname.slice(1));
      } finally {
        sql.close();
      }
    } finally {
      delete process.env.PARLEY_TEST_TEAM_STORE;
      if (saved !== undefined) process.env.PARLEY_DATABASE_URL = saved;
    }
  });
});
