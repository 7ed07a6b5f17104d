import { ConfigError } from '@parley/core';
import type { LoadedSuite } from '@parley/config';

/**
 * `--agent NAME`, else the suite's only agent; a suite with several needs the flag. `whose` ends
 * the message that asks for it: "the conversations were with", "the scenarios are for".
 */
export function chooseAgent(suite: LoadedSuite, requested: string | undefined, whose: string): string {
  const names = Object.keys(suite.config.agents);
  if (requested !== undefined) {
    if (!Object.hasOwn(suite.config.agents, requested)) {
      throw new ConfigError(`--agent ${requested}: the suite has no such agent; its agents are ${names.join(', ')}`);
    }
    return requested;
  }
  if (names.length === 1) return names[0]!;
  throw new ConfigError(`the suite has ${names.length} agents (${names.join(', ')}): choose the one ${whose}, with --agent NAME`);
}
