import type { Clock, Random } from '@parley/core';
import type { Output } from './output.js';

/** Everything a command needs from the outside world, injected so tests run commands in-process. */
export interface CommandContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  output: Output;
  clock: Clock;
  random: Random;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
  /**
   * Configuration errors are also printed as GitHub workflow commands (annotations): in GitHub
   * Actions by default, or with `--reporter github`.
   */
  githubAnnotations?: boolean;
}
