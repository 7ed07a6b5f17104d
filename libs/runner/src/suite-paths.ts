import { isAbsolute, join, resolve } from 'node:path';
import type { LoadedSuite } from '@parley/config';

/** A path of parley.yaml (a prompt, the recordings folder, …), which is relative to the suite's folder unless absolute. */
export function resolveInSuite(suite: LoadedSuite, path: string): string {
  return isAbsolute(path) ? path : resolve(join(suite.dir, path));
}

/** The suite's recordings folder (`recordings:` of parley.yaml). */
export function recordingsDir(suite: LoadedSuite): string {
  return resolveInSuite(suite, suite.config.recordings);
}
