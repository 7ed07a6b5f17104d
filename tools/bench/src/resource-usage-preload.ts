import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '@parley/core';

/** The child writes its resource usage (JSON, see `ChildUsage`) to the file this variable names. */
export const USAGE_FILE_VARIABLE = 'PARLEY_BENCH_USAGE_FILE';
/** The pid of the measured process, set by the preload when it first loads. */
export const USAGE_OWNER_VARIABLE = 'PARLEY_BENCH_USAGE_OWNER';

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
 * than wall time when other work shares the cores. The first process to load it claims the figures
 * by its pid: a forked grandchild inherits `--require` and the variables and must not overwrite its
 * parent's figures, while the bin replacing itself in place (`process.execve`, same pid) still
 * reports, and `resourceUsage()` then covers both images (Linux keeps peak RSS and CPU time across exec).
 */
const PRELOAD_SOURCE = `'use strict';
const target = process.env.${USAGE_FILE_VARIABLE};
const owner = process.env.${USAGE_OWNER_VARIABLE};
if (target && (owner === undefined || owner === String(process.pid))) {
  process.env.${USAGE_OWNER_VARIABLE} = String(process.pid);
  process.on('exit', () => {
    const usage = process.resourceUsage();
    require('node:fs').writeFileSync(target, JSON.stringify({ maxRssKiB: usage.maxRSS, userCpuMicros: usage.userCPUTime, systemCpuMicros: usage.systemCPUTime }));
  });
}
`;

/**
 * Path of the preload file (CommonJS, so it loads the same way whether the measured program is
 * ESM or CJS). The name carries a hash of the content, so every process (test workers included,
 * which may end without running exit handlers) shares one file and nothing piles up in the temp
 * folder; it is written through a rename, so a concurrent reader never sees half a file.
 */
export function usagePreloadPath(): string {
  const path = join(tmpdir(), `parley-bench-usage-preload-${sha256Hex(PRELOAD_SOURCE).slice(0, 12)}.cjs`);
  if (!existsSync(path)) {
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, PRELOAD_SOURCE);
    renameSync(temporary, path);
  }
  return path;
}
