/** The exit code of a command stopped by Ctrl-C. */
export const EXIT_SIGINT = 130;
/** The exit code of a command stopped by SIGTERM (CI runners, `timeout`). */
export const EXIT_SIGTERM = 143;

/** The exit code of a command stopped by Ctrl-C (130) or SIGTERM (143): the signal's reason names which. */
export function interruptedExit(signal: AbortSignal): number {
  return signal.reason === 'SIGTERM' ? EXIT_SIGTERM : EXIT_SIGINT;
}
