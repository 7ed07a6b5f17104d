import { useState } from 'react';
import type { AgentIndexFilter, AgentRunStatus } from '@parley/runner';

/** The value after `current` in `choices`, then back to none (no filter) after the last one. */
export function nextChoice<T>(choices: readonly T[], current: T | undefined): T | undefined {
  if (current === undefined) return choices[0];
  const index = choices.indexOf(current);
  return index < 0 ? choices[0] : choices[index + 1];
}

export interface AgentFilters {
  filter: AgentIndexFilter;
  cycleKind(kinds: readonly string[]): void;
  cycleTag(tags: readonly string[]): void;
  cycleStatus(statuses: readonly AgentRunStatus[]): void;
  clear(): void;
}

export function useAgentFilters(): AgentFilters {
  const [filter, setFilter] = useState<AgentIndexFilter>({});
  const set = <K extends keyof AgentIndexFilter>(key: K, value: AgentIndexFilter[K]) =>
    setFilter((current) => {
      const { [key]: _dropped, ...rest } = current;
      return value === undefined ? rest : { ...rest, [key]: value };
    });
  return {
    filter,
    cycleKind: (kinds) => set('kind', nextChoice(kinds, filter.kind)),
    cycleTag: (tags) => set('tag', nextChoice(tags, filter.tag)),
    cycleStatus: (statuses) => set('status', nextChoice(statuses, filter.status)),
    clear: () => setFilter({}),
  };
}
