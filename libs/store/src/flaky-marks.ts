import type Database from 'better-sqlite3';

/**
 * A person's verdict in triage that a scenario of a suite is flaky (its failures come and go
 * without a change). One mark per scenario of a suite: marking again replaces the note and the
 * date. A mark changes no status and no exit code; reports show it beside the scenario.
 */
export interface FlakyMark {
  /** The `suite:` name of parley.yaml. */
  suite: string;
  scenario_id: string;
  /** The run the scenario was triaged in. */
  run_id: string;
  /** ISO 8601, UTC. */
  marked_at: string;
  /** Why, in the person's words; empty when none was given. */
  note: string;
}

/** The statements behind the store's flaky-mark methods, compiled once when the store opens. */
export function prepareFlakyMarks(database: Database.Database) {
  const upsert = database.prepare<[FlakyMark]>(`
    INSERT INTO flaky_marks (suite, scenario_id, run_id, marked_at, note)
    VALUES (@suite, @scenario_id, @run_id, @marked_at, @note)
    ON CONFLICT (suite, scenario_id) DO UPDATE SET run_id = excluded.run_id, marked_at = excluded.marked_at, note = excluded.note`);
  const remove = database.prepare<[string, string]>('DELETE FROM flaky_marks WHERE suite = ? AND scenario_id = ?');
  const one = database.prepare<[string, string], FlakyMark>(
    'SELECT suite, scenario_id, run_id, marked_at, note FROM flaky_marks WHERE suite = ? AND scenario_id = ?',
  );
  const ofSuite = database.prepare<[string], FlakyMark>(
    'SELECT suite, scenario_id, run_id, marked_at, note FROM flaky_marks WHERE suite = ? ORDER BY scenario_id',
  );
  const all = database.prepare<[], FlakyMark>(
    'SELECT suite, scenario_id, run_id, marked_at, note FROM flaky_marks ORDER BY suite, scenario_id',
  );
  return {
    mark(mark: FlakyMark): void {
      upsert.run(mark);
    },
    unmark(suite: string, scenarioId: string): boolean {
      return remove.run(suite, scenarioId).changes > 0;
    },
    get(suite: string, scenarioId: string): FlakyMark | undefined {
      return one.get(suite, scenarioId);
    },
    list(suite?: string): FlakyMark[] {
      return suite === undefined ? all.all() : ofSuite.all(suite);
    },
  };
}
