import { createContext, useContext, type ReactNode } from 'react';
import type { Clock, Random } from '@parley/core';
import type { RunOptions } from '@parley/runner';

/** What every screen may use from the outside world, injected so component tests need no mocks. */
export interface TuiServices {
  cwd: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** Suite folder or parley.yaml (default the working directory). */
  suitePath: string;
  /** The run history: `.parley/parley.db` under the working directory. */
  storePath: string;
  /** Calibration folder (human_labelled.yaml, rubric.md, reports/). */
  calibrationDir: string;
  /** `parley tui rate --reviewer NAME`; else $PARLEY_REVIEWER, else the login name. */
  reviewer?: string;
  /** `parley tui run …`: the parsed run flags. */
  runOptions?: Omit<RunOptions, 'signal'>;
  /** Run ids and session tenants of the live run (default: the platform's CSPRNG). */
  random?: Random;
  /** Aborted by an interrupt from outside (SIGINT sent to the process); Ctrl-C itself arrives as a key. */
  signal?: AbortSignal;
  /**
   * Leaves at once with this exit code, not waiting for work in flight (a second Ctrl-C during a
   * live run, as the headless runner does). Without it the TUI quits the normal way.
   */
  exitNow?(code: number): void;
  /** The exit code `parley tui` ends with (the live run view sets the run's own: 0, 1 or 2). */
  setExitCode(code: number): void;
  /**
   * Lines printed on the shell's own screen once the TUI has left the alternate one (the live run's
   * id, status and resume command, as `parley run` leaves them). Optional: tests render without it.
   */
  setFarewell?(lines: readonly string[]): void;
  /** Opens a file in the user's editor and resolves when the editor exits (the TUI pauses meanwhile). */
  openInEditor(file: string): Promise<void>;
  /** How the person runs Parley (`parley` or `npx parley`), for the commands the screens name; `parley` when left out. */
  parleyCommand?: () => string;
}

/** The words that start a Parley command the person can paste: `parley` or `npx parley`. */
export function parleyOf(services: Pick<TuiServices, 'parleyCommand'>): string {
  return services.parleyCommand?.() ?? 'parley';
}

const TuiContext = createContext<TuiServices | undefined>(undefined);

export function TuiServicesProvider({ services, children }: { services: TuiServices; children: ReactNode }) {
  return <TuiContext.Provider value={services}>{children}</TuiContext.Provider>;
}

export function useServices(): TuiServices {
  const services = useContext(TuiContext);
  if (!services) throw new Error('useServices outside TuiServicesProvider');
  return services;
}
