import type { SqlRow, SyncSql } from './sql/sync-sql.js';

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

type MarkRow = FlakyMark & SqlRow;

const markColumns = 'suite, scenario_id, run_id, marked_at, note';

/** The store's flaky-mark methods. */
export function flakyMarks(sql: SyncSql) {
  return {
    mark(mark: FlakyMark): void {
      sql.run(
        `INSERT INTO flaky_marks (${markColumns}) VALUES (@suite, @scenario_id, @run_id, @marked_at, @note)
         ON CONFLICT (suite, scenario_id) DO UPDATE SET run_id = excluded.run_id, marked_at = excluded.marked_at, note = excluded.note`,
        { suite: mark.suite, scenario_id: mark.scenario_id, run_id: mark.run_id, marked_at: mark.marked_at, note: mark.note },
      );
    },
    unmark(suite: string, scenarioId: string): boolean {
      return sql.run('DELETE FROM flaky_marks WHERE suite = ? AND scenario_id = ?', [suite, scenarioId]).changes > 0;
    },
    get(suite: string, scenarioId: string): FlakyMark | undefined {
      return sql.get<MarkRow>(`SELECT ${markColumns} FROM flaky_marks WHERE suite = ? AND scenario_id = ?`, [suite, scenarioId]);
    },
    list(suite?: string): FlakyMark[] {
      return suite === undefined
        ? sql.all<MarkRow>(`SELECT ${markColumns} FROM flaky_marks ORDER BY suite, scenario_id`)
        : sql.all<MarkRow>(`SELECT ${markColumns} FROM flaky_marks WHERE suite = ? ORDER BY scenario_id`, [suite]);
    },
  };
}
