import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parleyAsync } from './test-support/parley-process.js';

const warning = 'warning: PARLEY_DATABASE_URL is set but empty: using the local store .parley/parley.db\n';

describe('PARLEY_DATABASE_URL set but empty (a CI secret a fork pull request does not get)', () => {
  it('falls back to .parley/parley.db and says so on stderr once per command; commands that open no store say nothing', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parley-empty-url-'));
    expect((await parleyAsync(['init'], { cwd })).status).toBe(0);
    const env = { PARLEY_DATABASE_URL: '' };
    const run = await parleyAsync(['run'], { cwd, env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr.split(warning).length - 1).toBe(1);
    const list = await parleyAsync(['runs', 'list'], { cwd, env });
    expect(list.stdout).toContain(' pass ');
    expect(list.stderr).toBe(warning);
    const validate = await parleyAsync(['validate'], { cwd, env });
    expect(validate.status).toBe(0);
    expect(validate.stderr).toBe('');
    const unset = await parleyAsync(['runs', 'list'], { cwd });
    expect(unset.stderr).toBe('');
  }, 120_000);
});
