import { systemRandom, type RunListener } from '@parley/core';
import type { RunDependencies } from '@parley/runner';
import type { TuiServices } from '../tui-context.js';

/** What a run started from the TUI (live run view, re-run) needs from the outside world, with one listener for its events. */
export function runDependencies(services: TuiServices, listener: RunListener): RunDependencies {
  return { cwd: services.cwd, env: services.env, clock: services.clock, random: services.random ?? systemRandom(), listeners: [listener], ...(services.parleyCommand ? { parleyCommand: services.parleyCommand } : {}) };
}
