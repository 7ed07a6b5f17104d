import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { LoadedSuite } from '@parley/config';
import type { RunMode } from '@parley/core';

/** A path of parley.yaml (a prompt, the recordings folder, …), which is relative to the suite's folder unless absolute. */
export function resolveInSuite(suite: LoadedSuite, path: string): string {
  return isAbsolute(path) ? path : resolve(join(suite.dir, path));
}

/** The suite's recordings folder (`recordings:` of parley.yaml). */
export function recordingsDir(suite: LoadedSuite): string {
  return resolveInSuite(suite, suite.config.recordings);
}

/**
 * Replay when the suite has any recording, live otherwise (docs/file-formats.md, "Mode"): a
 * suite with recordings is tested offline and for free unless `--mode` asks for live calls.
 */
export function defaultMode(suite: LoadedSuite): RunMode {
  const directory = recordingsDir(suite);
  if (!existsSync(directory)) return 'live';
  return readdirSync(directory).some((name) => name.endsWith('.jsonl')) ? 'replay' : 'live';
}
