import type { RunEvent } from '@parley/core';
import type { RunOutcome } from '@parley/runner';
import type { Output } from '../output/output.js';

/** What a reporter may use: where the run ran and where to write. */
export interface ReporterContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  output: Output;
  /** How the person runs Parley (`parley` or `npx parley`), for the commands a reporter prints; `parley` when left out. */
  parleyCommand?: () => string;
  /**
   * Text meant for people: stdout, or stderr when one of the run's reporters owns stdout (its
   * document must stay parseable). Call it only from onEvent / onRunEnd.
   */
  forPeople(text: string): void;
}

/**
 * One way of telling the result of `parley run` (`--reporter NAME`), after Vitest's and
 * Playwright's reporter APIs: the run's events as they happen, its outcome at the end.
 */
export interface Reporter {
  /** The name `--reporter` takes (the key of its entry in REPORTERS). */
  readonly name: string;
  /** Prints a whole document on stdout (json, junit, markdown): at most one such reporter per run. */
  readonly ownsStdout: boolean;
  /**
   * Shows the run's warnings itself (console on stderr, github as annotations). When no chosen
   * reporter does, the run prints them on stderr, so a warning is never lost.
   */
  readonly showsWarnings: boolean;
  /** Each event of the run as it happens (scenario started, finished, …). */
  onEvent?(event: RunEvent): void;
  /** Once, after the run (an interrupted one too), with its outcome. */
  onRunEnd(outcome: RunOutcome): void | Promise<void>;
}

/** Makes the reporter for one run. */
export type ReporterFactory = (context: ReporterContext) => Reporter;
