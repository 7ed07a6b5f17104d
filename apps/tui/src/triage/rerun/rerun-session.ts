import { isConfigError, formatIssue } from '@parley/core';
import type { ReportResult } from '@parley/reports';
import { runSuite, type RerunChoice, type RunOptions, type RunOutcome } from '@parley/runner';
import { displayPath } from '../../live/live-format.js';
import { runDependencies } from '../../live/run-dependencies.js';
import type { TuiServices } from '../../tui-context.js';

/** Where a re-run is. */
export type RerunState =
  | { kind: 'idle' }
  /** `turn`: the user turn reached (it starts over with each attempt); `spentUsd`: what the calls cost so far. */
  | { kind: 'running'; choice: RerunChoice; runId?: string; turn: number; attemptsDone: number; spentUsd: number | null; stopping: boolean }
  /** `result`: the new result as the run reported it (undefined when it was stopped before the scenario finished). */
  | { kind: 'finished'; choice: RerunChoice; outcome: RunOutcome; result?: ReportResult }
  /** The suite or the flags are wrong, or the run broke down: nothing new is stored for the scenario. */
  | { kind: 'failed'; choice: RerunChoice; message: string };

/**
 * One re-run of a scenario from triage, through the same orchestrator as `parley run` (so the new
 * run is stored and reported like any other). It lives outside React so that its result is still
 * there after the user opened the new result and came back; screens subscribe to it.
 */
export class RerunSession {
  state: RerunState = { kind: 'idle' };
  version = 0;
  private controller: AbortController | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly services: TuiServices) {}

  /** Starts a re-run with `options` (from `rerunOptions`); ignored while one runs. */
  start(options: RunOptions, choice: RerunChoice): void {
    if (this.state.kind === 'running') return;
    const { services } = this;
    const controller = new AbortController();
    this.controller = controller;
    this.set({ kind: 'running', choice, turn: 0, attemptsDone: 0, spentUsd: 0, stopping: false });
    runSuite(
      { ...options, signal: controller.signal },
      runDependencies(services, (event) => {
        const current = this.state;
        if (current.kind !== 'running') return;
        if (event.type === 'run_started') this.set({ ...current, runId: event.run_id });
        else if (event.type === 'turn_completed') {
          const cost = event.turn.cost_usd;
          // A turn number lower than the last one is the next attempt of `--repeat` starting over.
          const attemptsDone = event.turn.turn < current.turn ? current.attemptsDone + 1 : current.attemptsDone;
          const spentUsd = current.spentUsd === null || cost === null ? null : current.spentUsd + (cost ?? 0);
          this.set({ ...current, turn: event.turn.turn, attemptsDone, spentUsd });
        }
      }),
    ).then(
      (outcome) => {
        const result = outcome.report.results[0];
        this.set({ kind: 'finished', choice, outcome, ...(result !== undefined ? { result } : {}) });
      },
      (error: unknown) => {
        const message = isConfigError(error)
          ? error.issues.map((issue) => formatIssue({ ...issue, file: displayPath(issue.file, services.cwd) })).join('\n')
          : error instanceof Error
            ? error.message
            : String(error);
        this.set({ kind: 'failed', choice, message });
      },
    );
  }

  /** Stops the re-run: the scenario is cut short, and the new run is stored as interrupted. */
  stop(): void {
    const current = this.state;
    if (current.kind !== 'running' || current.stopping) return;
    this.controller?.abort();
    this.set({ ...current, stopping: true });
  }

  /** Back to choosing (after a re-run ended). */
  reset(): void {
    if (this.state.kind === 'running') return;
    this.set({ kind: 'idle' });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  private set(state: RerunState): void {
    this.state = state;
    this.version += 1;
    for (const listener of this.listeners) listener();
  }
}

const sessions = new WeakMap<TuiServices, Map<string, RerunSession>>();

/** The re-run of one scenario of one run in this TUI: created on first use, kept across screens. */
export function rerunSessionFor(services: TuiServices, runId: string, scenarioId: string): RerunSession {
  let byScenario = sessions.get(services);
  if (!byScenario) {
    byScenario = new Map();
    sessions.set(services, byScenario);
  }
  const key = `${runId}\u0000${scenarioId}`;
  let session = byScenario.get(key);
  if (!session) {
    session = new RerunSession(services);
    byScenario.set(key, session);
  }
  return session;
}
