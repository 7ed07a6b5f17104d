import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepStoreLocal } from './store-location.js';
import { storeShownFor } from './store-shown.js';

describe('storeShownFor', () => {
  const path = join('/project', '.parley', 'parley.db');
  const team = { PARLEY_DATABASE_URL: 'postgres://parley:s3cret-7781@db.internal:5432/team' };

  it('names a team store by its URL with the password as ***, never the local file it does not use', () => {
    expect(storeShownFor(path, '.parley/parley.db', team)).toBe('the team store postgres://parley:***@db.internal:5432/team');
  });

  it('names the local file when there is no team store, or when the path is kept local', () => {
    expect(storeShownFor(path, '.parley/parley.db', {})).toBe('.parley/parley.db');
    expect(storeShownFor(path, undefined, {})).toBe(path);
    const release = keepStoreLocal(path);
    try {
      expect(storeShownFor(path, undefined, team)).toBe(path);
    } finally {
      release();
    }
  });
});
