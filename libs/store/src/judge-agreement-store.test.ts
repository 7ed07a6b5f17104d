import { describe, expect, it } from 'vitest';
import { openJudgeAgreement, type JudgeAgreementRecord } from './judge-agreement-store.js';
import { openSql } from './open-sql.js';
import { storeDrivers, useStoreDriver } from './test-support/each-driver.js';

const agreement = (run: string, startedAt: string, kappa: number | null, suite = 'booking'): JudgeAgreementRecord => ({
  run_id: run,
  suite,
  started_at: startedAt,
  pairs: 10,
  kappa,
  weighted_kappa: kappa === null ? null : kappa / 2,
});

describe.each(storeDrivers)('openJudgeAgreement on %s', (driver) => {
  const database = useStoreDriver(driver);

  it("replaces a run's agreement and lists a suite's earlier measured runs, newest first", () => {
    const sql = openSql(database.path);
    for (const [id, startedAt] of <Array<[string, string]>>[
      ['r1', '2026-11-01T00:00:00.000Z'],
      ['r2', '2026-11-02T00:00:00.000Z'],
      ['r3', '2026-11-03T00:00:00.000Z'],
      ['r4', '2026-11-04T00:00:00.000Z'],
      ['o1', '2026-11-02T12:00:00.000Z'],
    ]) {
      sql.run("INSERT INTO runs (id, suite, mode, started_at, parley_version, options_json, out_dir) VALUES (?, 'booking', 'live', ?, '0.1.0', '{}', '/out')", [id, startedAt]);
    }
    sql.close();
    const store = openJudgeAgreement(database.path);
    try {
      store.save(agreement('r1', '2026-11-01T00:00:00.000Z', 0.4));
      store.save(agreement('r2', '2026-11-02T00:00:00.000Z', 0.5));
      store.save(agreement('r2', '2026-11-02T00:00:00.000Z', 0.6));
      store.save(agreement('r3', '2026-11-03T00:00:00.000Z', null));
      store.save(agreement('o1', '2026-11-02T12:00:00.000Z', 0.9, 'municipal'));
      expect(store.previous('booking', '2026-11-04T00:00:00.000Z')).toEqual([agreement('r2', '2026-11-02T00:00:00.000Z', 0.6), agreement('r1', '2026-11-01T00:00:00.000Z', 0.4)]);
      expect(store.previous('booking', '2026-11-04T00:00:00.000Z', 1)).toEqual([agreement('r2', '2026-11-02T00:00:00.000Z', 0.6)]);
    } finally {
      store.close();
    }
  });
});
