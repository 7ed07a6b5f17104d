import { describe, expect, it } from 'vitest';
import { ConfigError } from '@parley/core';
import { parseDatabaseUrl, withoutSecret } from './database-url.js';

describe('parseDatabaseUrl', () => {
  it('reads postgres:// and postgresql:// URLs', () => {
    const url = parseDatabaseUrl('postgres://team:s3cret@db.internal:6543/parley');
    expect(url).toMatchObject({ host: 'db.internal', port: 6543, database: 'parley', user: 'team' });
    expect(url.shown).toBe('postgres://team:***@db.internal:6543/parley');
    expect(parseDatabaseUrl('postgresql://team@localhost/parley')).toMatchObject({ port: 5432, database: 'parley' });
  });

  it('refuses other schemes and text that is not a URL, without repeating the password', () => {
    expect(() => parseDatabaseUrl('mysql://u:hunter2@h/d')).toThrow(ConfigError);
    expect(() => parseDatabaseUrl('mysql://u:hunter2@h/d')).toThrow(/postgres:\/\/ or postgresql:\/\//);
    expect(() => parseDatabaseUrl('not a url hunter2')).toThrow(ConfigError);
    for (const text of ['mysql://u:hunter2@h/d', 'not a url hunter2']) {
      try {
        parseDatabaseUrl(text);
      } catch (error) {
        expect((error as Error).message).not.toContain('hunter2');
      }
    }
  });

  it('a password with / : # ? written as is: says to percent-encode it, without repeating it', () => {
    for (const text of ['postgres://parley:p@ss:w/rd#1?@db:5432/team', 'postgres://parley:a/b@db/team', 'postgres://parley:x#y@db/team']) {
      const error = (() => {
        try {
          parseDatabaseUrl(text);
        } catch (thrown) {
          return thrown as Error;
        }
        throw new Error(`${text} parsed`);
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toBe(
        'PARLEY_DATABASE_URL is not a URL; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE, with any of @ : / ? # % in the user or password percent-encoded (@ as %40, : as %3A, / as %2F, ? as %3F, # as %23, % as %25)',
      );
    }
    expect(parseDatabaseUrl('postgres://parley:p%40ss%3Aw%2Frd%231%3F@db:5432/team')).toMatchObject({ host: 'db', user: 'parley', database: 'team' });
  });

  it('removes the password, encoded or not, from a driver message', () => {
    const url = parseDatabaseUrl('postgres://u:p%40ss@h:1/d');
    expect(withoutSecret('cannot reach postgres://u:p%40ss@h:1/d (password p@ss)', url)).toBe('cannot reach postgres://u:***@h:1/d (password ***)');
  });
});
