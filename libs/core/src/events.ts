import type { RunMode, RunStatus, ScenarioResult, Status } from './results.js';
import type { TranscriptTurn } from './transcript.js';

/**
 * What the orchestrator tells its listeners (console, TUI, event log, store). The orchestrator
 * knows nothing about who listens; listeners never change the run.
 */
export type RunEvent =
  | {
      type: 'run_started';
      run_id: string;
      suite: string;
      mode: RunMode;
      scenario_ids: string[];
      started_at: string;
    }
  | { type: 'scenario_started'; run_id: string; scenario_id: string }
  | { type: 'turn_completed'; run_id: string; scenario_id: string; turn: TranscriptTurn }
  | { type: 'scenario_finished'; run_id: string; result: ScenarioResult }
  | {
      type: 'run_finished';
      run_id: string;
      status: RunStatus;
      exit_code: number;
      counts: Record<Status, number>;
      finished_at: string;
    };

export type RunListener = (event: RunEvent) => void;
