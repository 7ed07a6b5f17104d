import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@parley/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './store.js';
import { storeDrivers, useStoreDriver } from './test-support/each-driver.js';
import {
  errorResult,
  failingResult,
  newRun,
  passingResult,
  runFinish,
  temporaryFolder,
} from './test-support/fixtures.js';

// SQLite only: the file, its folders and its journal mode are SQLite's (PostgreSQL has no file here).
describe('openStore on SQLite', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  it('creates the missing parent folders, and the file in WAL mode', () => {
    const path = join(folder.path, 'project', '.parley', 'parley.db');
    const store = openStore(path);
    expect(store.path).toBe(path);
    store.close();

    expect(existsSync(path)).toBe(true);
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });
});

describe.each(storeDrivers)('Store on %s', (driver) => {
  const database = useStoreDriver(driver);
  let store: Store;
  const runId = newRun().id;
  beforeEach(() => {
    store = openStore(database.path);
    store.createRun(newRun());
  });
  afterEach(() => store.close());

  it('keeps runs and results after close and reopen, with no database file on PostgreSQL', () => {
    store.saveScenarioResult(runId, passingResult());
    store.saveScenarioResult(runId, errorResult());
    store.finishRun(runId, runFinish());
    store.close();

    store = openStore(database.path);
    expect(store.getRun(runId)).toMatchObject({ status: 'fail', scenario_count: 2, finished: true });
    expect(store.getScenarioResults(runId)).toStrictEqual([errorResult(), passingResult()]);
    expect(existsSync(database.path)).toBe(driver === 'sqlite');
  });

  describe('scenario results', () => {
    it('round-trips results with transcript, metrics, null scores, explicit flags and error details', () => {
      store.saveScenarioResult(runId, passingResult());
      store.saveScenarioResult(runId, failingResult());
      store.saveScenarioResult(runId, errorResult());

      // Sorted by scenario id; toStrictEqual also checks that absent optional fields stay absent.
      expect(store.getScenarioResults(runId)).toStrictEqual([failingResult(), errorResult(), passingResult()]);
    });

    it('keeps metrics in their order, also when one metric name occurs twice', () => {
      store.saveScenarioResult(runId, failingResult());
      const [stored] = store.getScenarioResults(runId);
      expect(stored?.metrics.map((metric) => [metric.metric, metric.score])).toEqual([
        ['conversation_judge', 0.62],
        ['booking_slot_consistency', null],
        ['conversation_judge', 0.8],
      ]);
    });

    it('replaces an earlier save of the same scenario and attempt, metrics included', () => {
      store.saveScenarioResult(runId, failingResult('flip'));
      store.saveScenarioResult(runId, passingResult('flip'));

      const results = store.getScenarioResults(runId);
      expect(results).toStrictEqual([passingResult('flip')]);
      expect(store.metricHistory('flip', 'booking_slot_consistency')).toEqual([]);
    });

    it('keeps the transcript of metadata_only results, and leaves it out when asked for an export', () => {
      store.saveScenarioResult(runId, failingResult());
      store.saveScenarioResult(runId, passingResult());

      expect(store.getScenarioResults(runId)[0]?.transcript).toEqual(failingResult().transcript);
      const exported = store.getScenarioResults(runId, { omitMetadataOnlyTranscripts: true });
      expect(exported[0]).toStrictEqual((({ transcript: _transcript, ...rest }) => rest)(failingResult()));
      expect(exported[1]?.transcript).toEqual(passingResult().transcript);
    });

    it('stores repetitions apart from the reported result', () => {
      const first = { ...failingResult('repeated'), status: 'fail' as const };
      const second = passingResult('repeated');
      store.saveScenarioResult(runId, second, 2);
      store.saveScenarioResult(runId, first, 1);

      expect(store.getScenarioResults(runId)).toEqual([]);
      expect(store.finishedScenarioIds(runId)).toEqual([]);
      expect(store.getScenarioAttempts(runId, 'repeated')).toStrictEqual([
        { attempt: 1, result: first },
        { attempt: 2, result: second },
      ]);

      store.saveScenarioResult(runId, { ...second, status: 'flaky', reason: '1 of 2 attempts failed' });
      expect(store.getScenarioResults(runId).map((result) => result.status)).toEqual(['flaky']);
      expect(store.getScenarioAttempts(runId, 'repeated')).toHaveLength(2);
    });

    it('saves many results in one transaction, all or none', () => {
      store.saveScenarioResults(runId, [passingResult('one'), errorResult('two')]);
      expect(store.getScenarioResults(runId)).toStrictEqual([passingResult('one'), errorResult('two')]);

      const unstorable = { ...passingResult('four'), metrics: [{ ...passingResult().metrics[0]!, details: { big: 1n } }] };
      expect(() => store.saveScenarioResults(runId, [passingResult('three'), unstorable])).toThrow(/BigInt/);
      expect(store.finishedScenarioIds(runId)).toEqual(['one', 'two']);
      expect(() => store.saveScenarioResults('no-such-run', [passingResult()])).toThrow(/no run "no-such-run"/);
    });

    it('saves a batch larger than one INSERT holds, replacing earlier saves, the later of a result saved twice winning', () => {
      const ids = Array.from({ length: 250 }, (_, index) => `s${String(index).padStart(3, '0')}`);
      store.saveScenarioResults(runId, ids.slice(0, 10).map((id) => errorResult(id)));
      const again = { ...passingResult('s005'), reason: 'saved twice in one batch' };
      store.saveScenarioResults(runId, [...ids.map((id) => passingResult(id)), again]);

      const stored = store.getScenarioResults(runId);
      expect(stored.map((result) => result.scenario_id)).toEqual(ids);
      expect(stored[5]).toStrictEqual(again);
      expect(stored[0]).toStrictEqual(passingResult('s000'));
      expect(stored.flatMap((result) => result.metrics)).toHaveLength(250 * passingResult().metrics.length);
      expect(store.getRun(runId)?.scenario_count).toBe(250);
    });

    it('refuses an attempt that is not a whole number ≥ 0', () => {
      expect(() => store.saveScenarioResult(runId, passingResult(), -1)).toThrow(RangeError);
      expect(() => store.saveScenarioResult(runId, passingResult(), 1.5)).toThrow(RangeError);
    });

    it('says which run is missing when saving into an unknown run, and saves nothing', () => {
      expect(() => store.saveScenarioResult('no-such-run', passingResult())).toThrow(/no run "no-such-run"/);
      expect(store.getScenarioResults('no-such-run')).toEqual([]);
    });

    it('rolls a failed save back as a whole, keeping the earlier save', () => {
      store.saveScenarioResult(runId, passingResult('kept'));
      // JSON cannot hold a bigint: the second metric fails after the result row was replaced.
      const [first, second] = passingResult('kept').metrics;
      const broken = { ...passingResult('kept'), status: 'fail' as const, metrics: [first!, { ...second!, details: { big: 1n } }] };
      expect(() => store.saveScenarioResult(runId, broken)).toThrow(/BigInt/);
      expect(store.getScenarioResults(runId)).toStrictEqual([passingResult('kept')]);
    });

    it('lists the finished scenarios of a run for --resume, sorted', () => {
      store.saveScenarioResult(runId, passingResult('b_second'));
      store.saveScenarioResult(runId, errorResult('a_first'));
      store.createRun(newRun({ id: 'other-run' }));
      store.saveScenarioResult('other-run', passingResult('c_elsewhere'));

      expect(store.finishedScenarioIds(runId)).toEqual(['a_first', 'b_second']);
      expect(store.finishedScenarioIds('unknown')).toEqual([]);
    });
  });

  describe('runs', () => {
    it('reads back a new run as unfinished, with null git sha and fingerprint when not given', () => {
      store.createRun(newRun({ id: 'bare', git_sha: undefined, config_fingerprint: undefined }));
      expect(store.getRun('bare')).toStrictEqual({
        ...newRun({ id: 'bare' }),
        git_sha: null,
        config_fingerprint: null,
        scenario_count: 0,
        finished: false,
      });
    });

    it('records the finish of a run', () => {
      store.saveScenarioResult(runId, passingResult());
      store.finishRun(runId, runFinish({ cost: { input_tokens: 10, output_tokens: 5, usd: null, calls: 2 } }));
      expect(store.getRun(runId)).toStrictEqual({
        ...newRun(),
        ...runFinish({ cost: { input_tokens: 10, output_tokens: 5, usd: null, calls: 2 } }),
        scenario_count: 1,
        finished: true,
      });
    });

    it('keeps an interrupted run as interrupted (not as the status of what finished before the signal)', () => {
      store.saveScenarioResult(runId, passingResult());
      store.finishRun(runId, runFinish({ status: 'interrupted', exit_code: 143 }));
      expect(store.getRun(runId)).toMatchObject({ status: 'interrupted', exit_code: 143, finished: true, scenario_count: 1 });
    });

    it('refuses to finish or create a run twice over', () => {
      expect(() => store.finishRun('no-such-run', runFinish())).toThrow(/no run "no-such-run"/);
      expect(() => store.createRun(newRun())).toThrow(/UNIQUE/);
    });

    it('lists runs newest first (the same start: the greater id first), with limit, offset and suite filter', () => {
      store.createRun(newRun({ id: 'same-time-later', started_at: '2026-11-20T08:00:00.000Z' }));
      store.createRun(newRun({ id: 'older', started_at: '2026-11-20T08:00:00.000Z' }));
      store.createRun(newRun({ id: 'newest', started_at: '2026-11-28T08:00:00.000Z', suite: 'other_suite' }));

      const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
      expect(ids(store.listRuns())).toEqual(['newest', runId, 'same-time-later', 'older']);
      expect(ids(store.listRuns({ limit: 2 }))).toEqual(['newest', runId]);
      expect(ids(store.listRuns({ limit: 2, offset: 2 }))).toEqual(['same-time-later', 'older']);
      expect(ids(store.listRuns({ suite: 'ratiba_booking', limit: 2 }))).toEqual([runId, 'same-time-later']);
      expect(store.listRuns({ suite: 'nothing' })).toEqual([]);
    });

    it('counts only reported results as the scenarios of a run', () => {
      store.saveScenarioResult(runId, passingResult('one'));
      store.saveScenarioResult(runId, passingResult('two'), 1);
      expect(store.listRuns()[0]?.scenario_count).toBe(1);
    });
  });

  describe('getRun by prefix', () => {
    beforeEach(() => {
      store.createRun(newRun({ id: 'abc-100' }));
      store.createRun(newRun({ id: 'abc-200' }));
      store.createRun(newRun({ id: 'abd' }));
    });

    it('finds a run by a unique prefix of its id', () => {
      expect(store.getRun('abc-1')?.id).toBe('abc-100');
      expect(store.getRun('abd')?.id).toBe('abd');
      expect(store.getRun('run-2026')?.id).toBe(runId);
    });

    it('prefers an exact id over longer ids that start with it', () => {
      store.createRun(newRun({ id: 'abc' }));
      expect(store.getRun('abc')?.id).toBe('abc');
    });

    it('returns undefined when nothing matches, and for an empty prefix', () => {
      expect(store.getRun('zzz')).toBeUndefined();
      expect(store.getRun('')).toBeUndefined();
    });

    it('throws a ConfigError naming the runs of an ambiguous prefix', () => {
      expect(() => store.getRun('abc')).toThrow(ConfigError);
      expect(() => store.getRun('ab')).toThrow(/"ab" is ambiguous: it matches abc-100, abc-200, abd;/);
    });

    it('names at most five runs of an ambiguous prefix', () => {
      for (const suffix of ['1', '2', '3', '4', '5', '6']) store.createRun(newRun({ id: `many-${suffix}` }));
      expect(() => store.getRun('many')).toThrow(/matches many-1, many-2, many-3, many-4, many-5, …;/);
    });
  });

  describe('metricHistory', () => {
    it('returns the scores of a scenario metric across runs, newest run first, reported results only', () => {
      store.saveScenarioResult(runId, passingResult('spa'));
      store.createRun(newRun({ id: 'later', started_at: '2026-11-27T12:00:00.000Z' }));
      store.saveScenarioResult('later', failingResult('spa'));
      store.saveScenarioResult('later', passingResult('spa'), 1);
      store.createRun(newRun({ id: 'earlier', started_at: '2026-11-25T12:00:00.000Z', suite: 'other' }));
      store.saveScenarioResult('earlier', passingResult('spa'));
      store.saveScenarioResult('earlier', passingResult('not_spa'));

      const history = store.metricHistory('spa', 'conversation_judge');
      expect(history.map((entry) => [entry.run_id, entry.score, entry.passed])).toEqual([
        ['later', 0.62, false],
        ['later', 0.8, true],
        [runId, 0.91, true],
        ['earlier', 0.91, true],
      ]);
      expect(history[0]).toEqual({
        run_id: 'later',
        suite: 'ratiba_booking',
        started_at: '2026-11-27T12:00:00.000Z',
        version: '1.2.0',
        score: 0.62,
        threshold: 0.7,
        passed: false,
        error: false,
        reason: 'asks two questions',
      });
      expect(store.metricHistory('spa', 'conversation_judge', 1)).toHaveLength(1);
      expect(store.metricHistory('spa', 'booking_slot_consistency')[0]).toMatchObject({ score: null, error: true });
    });
  });
});
