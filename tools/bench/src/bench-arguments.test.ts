import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZES, parseBenchArguments } from './bench-arguments.js';

describe('parseBenchArguments', () => {
  it('defaults to the three target sizes, three runs, Parley only', () => {
    expect(parseBenchArguments([], {})).toEqual({ sizes: DEFAULT_SIZES, runs: 3, promptfoo: false, floor: false, keep: false });
  });

  it('reads every option', () => {
    expect(parseBenchArguments(['--sizes', '1, 10_000', '--runs', '5', '--promptfoo', '--floor', '--json', 'out.json', '--keep'])).toEqual({
      sizes: [1, 10_000],
      runs: 5,
      promptfoo: true,
      floor: true,
      json: 'out.json',
      keep: true,
    });
  });

  it('takes a PostgreSQL URL to replay into beside SQLite, from --database-url or PARLEY_BENCH_DATABASE_URL', () => {
    const url = 'postgres://bench:secret@127.0.0.1:5432/parley';
    expect(parseBenchArguments(['--sizes', '1000', '--database-url', url], {})).toMatchObject({ sizes: [1000], databaseUrl: url });
    expect(parseBenchArguments(['--sizes', '1000'], { PARLEY_BENCH_DATABASE_URL: url })).toMatchObject({ databaseUrl: url });
    expect(parseBenchArguments(['--sizes', '1000'], { PARLEY_BENCH_DATABASE_URL: '' })).not.toHaveProperty('databaseUrl');
    const refused = parseBenchArguments(['--database-url', 'mysql://bench:secret@host/db'], {});
    expect(refused).toEqual({ error: '--database-url takes a postgres:// URL, got "mysql://bench:***@host/db"' });
    expect(parseBenchArguments(['--database-url', url, '--floor'], {})).toHaveProperty('error');
  });

  it('refuses bad sizes, bad run counts and unknown flags', () => {
    expect(parseBenchArguments(['--sizes', '1,x'])).toHaveProperty('error');
    expect(parseBenchArguments(['--sizes', '0'])).toHaveProperty('error');
    expect(parseBenchArguments(['--runs', '0'])).toHaveProperty('error');
    expect(parseBenchArguments(['--fast'])).toHaveProperty('error');
  });
});
