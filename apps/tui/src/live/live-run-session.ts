import { isConfigError, type ConfigIssue } from '@parley/core';
import { EXIT_CONFIG_ERROR, EXIT_INTERNAL_ERROR } from '@parley/gate';
import { runBudget, runSuite, type RunBudget, type RunOutcome } from '@parley/runner';
import type { TuiServices } from '../tui-context.js';
import { LiveRunProgress } from './live-run-progress.js';
import { runDependencies } from './run-dependencies.js';

/** How a live run ended. */
export type LiveRunEnd =
  | { kind: 'finished'; outcome: RunOutcome }
  /** The suite or the flags are wrong (exit 2): nothing ran. */
  | { kind: 'config-error'; issues: ConfigIssue[] }
  /** Something the run did not expect (exit 2, as `parley run` gives), shown rather than lost behind the screen. */
  | { kind: 'failed'; message: string };

/**
 * One live run of `parley tui run`, started through the same orchestrator as `parley run` and
 * followed through its events. It lives outside React so that the run survives the screen being
 * left for the run's triage and opened again; screens subscribe to it and read its fields.
 */
export class LiveRunSession {
  readonly progress = new LiveRunProgress();
  /** The budget the run holds to (undefined: none, or not known yet). */
  budget: RunBudget | undefined;
  /** `clock.monotonicMs()` when the run was started. */
  startedMs = 0;
  /** True from the first Ctrl-C (or outside interrupt): no new scenario starts. */
  stopping = false;
  end: LiveRunEnd | undefined;
  /** Grows with every change, so that views know when to draw again. */
  version = 0;
  private readonly controller = new AbortController();
  private readonly listeners = new Set<() => void>();
  private started = false;

  constructor(private readonly services: TuiServices) {}

  /** Starts the run (once; later calls do nothing). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const { services } = this;
    const options = services.runOptions;
    this.startedMs = services.clock.monotonicMs();
    if (!options) {
      this.finish({ kind: 'failed', message: 'no run to show: open this view with `parley tui run [suite] …`' }, EXIT_INTERNAL_ERROR);
      return;
    }
    const storePath = options.storePath ?? services.storePath;
    try {
      this.budget = runBudget({ ...options, storePath }, { cwd: services.cwd, env: services.env });
    } catch {
      // The run stops with the same ConfigError, which the view then shows with its location.
    }
    if (services.signal?.aborted) this.stop();
    else services.signal?.addEventListener('abort', () => this.stop(), { once: true });
    runSuite(
      {
        ...options,
        storePath,
        ...(services.env.GITHUB_STEP_SUMMARY ? { githubStepSummary: services.env.GITHUB_STEP_SUMMARY } : {}),
        signal: this.controller.signal,
      },
      runDependencies(services, (event) => {
        this.progress.apply(event);
        this.changed();
      }),
    ).then(
      (outcome) => {
        // Left on the shell's screen after the TUI closes, as `parley run` leaves it.
        const report = outcome.report;
        this.services.setFarewell?.([
          `run ${outcome.run_id} · ${report.status} (exit ${outcome.exit_code}) · ${report.results.length} of ${report.interruption?.planned ?? report.results.length} scenario${(report.interruption?.planned ?? report.results.length) === 1 ? '' : 's'} · report ${outcome.out_dir}`,
          ...(report.interruption ? [`finish it with: ${report.interruption.resume}`] : []),
        ]);
        this.finish({ kind: 'finished', outcome }, outcome.exit_code);
      },
      (error: unknown) => {
        if (isConfigError(error)) this.finish({ kind: 'config-error', issues: error.issues }, EXIT_CONFIG_ERROR);
        else this.finish({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }, EXIT_INTERNAL_ERROR);
      },
    );
  }

  /** Ctrl-C: no new scenario starts; those in flight are cut short; finished results are kept and reported. */
  stop(): void {
    if (this.stopping || this.end) return;
    this.stopping = true;
    this.controller.abort();
    this.changed();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  private finish(end: LiveRunEnd, exitCode: number): void {
    this.end = end;
    this.services.setExitCode(exitCode);
    this.changed();
  }

  private changed(): void {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }
}

const sessions = new WeakMap<TuiServices, LiveRunSession>();

/** The live run of this TUI (one per `parley tui run`): created on first use, kept across screens. */
export function liveRunSessionFor(services: TuiServices): LiveRunSession {
  let session = sessions.get(services);
  if (!session) {
    session = new LiveRunSession(services);
    sessions.set(services, session);
  }
  return session;
}
