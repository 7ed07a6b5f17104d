import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The child writes its resource usage (JSON, see `ChildUsage`) to the file this variable names. */
export const USAGE_FILE_VARIABLE = 'PARLEY_BENCH_USAGE_FILE';

/** What the preload reports: peak RSS in KiB and CPU time in microseconds, as `process.resourceUsage()` gives them. */
export interface ChildUsage {
  maxRssKiB: number;
  userCpuMicros: number;
  systemCpuMicros: number;
}

/**
 * Loaded with `node --require` into a measured Node process. On exit it writes its
 * `process.resourceUsage()` figures to the file named by the variable, so peak memory and CPU time
 * are read without /usr/bin/time. CPU time is kept beside wall time because it moves much less
 * than wall time when other work shares the cores. The variable is removed at once: a forked grandchild inherits
 * `--require` and must not overwrite its parent's figures.
 */
const PRELOAD_SOURCE = `'use strict';
const target = process.env.${USAGE_FILE_VARIABLE};
if (target) {
  delete process.env.${USAGE_FILE_VARIABLE};
  process.on('exit', () => {
    const usage = process.resourceUsage();
    require('node:fs').writeFileSync(target, JSON.stringify({ maxRssKiB: usage.maxRSS, userCpuMicros: usage.userCPUTime, systemCpuMicros: usage.systemCPUTime }));
  });
}
`;

let preloadPath: string | undefined;

/**
 * Path of the preload file (CommonJS, so it loads the same way whether the measured program is
 * ESM or CJS), written once per process into a fresh temp folder that goes when the process exits.
 */
export function usagePreloadPath(): string {
  if (preloadPath === undefined) {
    const folder = mkdtempSync(join(tmpdir(), 'parley-bench-usage-'));
    preloadPath = join(folder, 'resource-usage.cjs');
    writeFileSync(preloadPath, PRELOAD_SOURCE);
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  }
  return preloadPath;
}
