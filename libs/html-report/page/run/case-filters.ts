import type { Status } from '@parley/core';
import type { CaseSummary } from '../../src/page-data.js';

export interface Filters {
  /** `all`, `failing` (anything but pass and skipped) or one status. */
  status: 'all' | 'failing' | Status;
  gate: 'all' | 'blocking' | 'advisory';
  tag: string;
  agent: string;
  text: string;
}

export const NO_FILTERS: Filters = { status: 'all', gate: 'all', tag: '', agent: '', text: '' };

export type SortKey = 'triage' | 'id' | 'agent' | 'gate' | 'cost';

export interface Sort {
  key: SortKey;
  /** 1 ascending, -1 descending. */
  direction: 1 | -1;
}

/** The cases the filters let through, in `sort` order; `cases` come in triage order, which `triage` keeps. */
export function filterCases(cases: readonly CaseSummary[], filters: Filters, sort: Sort): CaseSummary[] {
  const text = filters.text.trim().toLowerCase();
  const kept = cases.filter(
    (entry) =>
      (filters.status === 'all' || (filters.status === 'failing' ? entry.status !== 'pass' && entry.status !== 'skipped' : entry.status === filters.status)) &&
      (filters.gate === 'all' || entry.gate === filters.gate) &&
      (filters.tag === '' || entry.tags.includes(filters.tag)) &&
      (filters.agent === '' || entry.agent === filters.agent) &&
      (text === '' || searchText(entry).includes(text)),
  );
  if (sort.key === 'triage') return sort.direction === 1 ? kept : kept.reverse();
  const value = (entry: CaseSummary): string | number => {
    switch (sort.key) {
      case 'id':
        return entry.id;
      case 'agent':
        return entry.agent;
      case 'gate':
        return entry.gate;
      case 'cost':
        return entry.cost_usd ?? -1;
    }
    return entry.id;
  };
  // Array.prototype.sort is stable: ties keep triage order.
  return kept.sort((left, right) => {
    const a = value(left);
    const b = value(right);
    return (a < b ? -1 : a > b ? 1 : 0) * sort.direction;
  });
}

const searchTexts = new WeakMap<CaseSummary, string>();

function searchText(entry: CaseSummary): string {
  let text = searchTexts.get(entry);
  if (text === undefined) {
    text = [entry.id, entry.title ?? '', entry.reason, entry.agent, entry.tags.join(' '), entry.language ?? ''].join('\n').toLowerCase();
    searchTexts.set(entry, text);
  }
  return text;
}
