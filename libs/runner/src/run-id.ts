import type { Clock, Random } from '@parley/core';

/**
 * A run id that sorts by start time and is unique enough for one machine's history:
 * `20261126-045512-3fa9c2` (UTC date, time, 6 random hex digits).
 */
export function newRunId(clock: Clock, random: Random): string {
  const iso = clock.now().toISOString(); // 2026-11-26T04:55:12.345Z
  const date = iso.slice(0, 10).replaceAll('-', '');
  const time = iso.slice(11, 19).replaceAll(':', '');
  return `${date}-${time}-${random.hex(6)}`;
}
