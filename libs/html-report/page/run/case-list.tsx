import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Status } from '@parley/core';
import type { CaseSummary } from '../../src/page-data.js';
import { plural, usd } from '../format.js';
import { href } from '../router.js';
import { StatusBadge } from '../status-badge.js';
import type { Filters, Sort, SortKey } from './case-filters.js';

/** Height of one row in pixels (fixed, so the list can draw only the rows in view). */
const ROW_HEIGHT = 40;
/** Rows drawn above and below the visible ones, so scrolling shows no gap. */
const OVERSCAN = 10;

const STATUSES: Status[] = ['error', 'fail', 'flaky', 'warn', 'pass', 'skipped'];

interface CaseListProps {
  all: readonly CaseSummary[];
  shown: readonly CaseSummary[];
  filters: Filters;
  onFilters: (filters: Filters) => void;
  sort: Sort;
  onSort: (sort: Sort) => void;
  /** The case last opened: the list scrolls to it and focuses it when coming back. */
  lastOpened: string | undefined;
}

/**
 * The run's cases, filtered and sorted, failures first (triage order) unless sorted otherwise.
 * Only the rows in view are in the page (10,000 cases stay quick); ↑/↓ (or j/k) move between
 * rows, Enter opens one, `/` goes to the text filter.
 */
export function CaseList({ all, shown, filters, onFilters, sort, onSort, lastOpened }: CaseListProps) {
  const tags = useMemo(() => [...new Set(all.flatMap((entry) => entry.tags))].sort(), [all]);
  const agents = useMemo(() => [...new Set(all.map((entry) => entry.agent))].sort(), [all]);
  const scroller = useRef<HTMLDivElement>(null);
  const textInput = useRef<HTMLInputElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const [active, setActive] = useState<number | undefined>(undefined);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    setHeight(element.clientHeight || 600);
    const index = lastOpened === undefined ? -1 : shown.findIndex((entry) => entry.id === lastOpened);
    if (index >= 0) {
      element.scrollTop = Math.max(0, index * ROW_HEIGHT - element.clientHeight / 2);
      setScrollTop(element.scrollTop);
      setActive(index);
    }
  }, []);

  // A layout effect: the key works as soon as the list is on screen.
  useLayoutEffect(() => {
    const slash = (event: KeyboardEvent) => {
      if (event.key === '/' && !(event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement)) {
        event.preventDefault();
        textInput.current?.focus();
      }
    };
    document.addEventListener('keydown', slash);
    return () => document.removeEventListener('keydown', slash);
  }, []);

  // A row moved to with the keyboard that was not drawn yet (End, PageDown) gets the focus once it is.
  const pendingFocus = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    if (pendingFocus.current === undefined) return;
    const link = scroller.current?.querySelector<HTMLAnchorElement>(`a[data-index="${pendingFocus.current}"]`);
    if (link) {
      link.focus();
      pendingFocus.current = undefined;
    }
  });

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(shown.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);

  // One row is in the Tab order: the active one when it is drawn, else the first drawn.
  const tabbable = active !== undefined && active >= first && active < last ? active : first;

  const moveTo = (index: number) => {
    const target = Math.max(0, Math.min(shown.length - 1, index));
    const element = scroller.current!;
    if (target * ROW_HEIGHT < element.scrollTop) element.scrollTop = target * ROW_HEIGHT;
    else if ((target + 1) * ROW_HEIGHT > element.scrollTop + element.clientHeight - ROW_HEIGHT) element.scrollTop = (target + 2) * ROW_HEIGHT - element.clientHeight;
    setScrollTop(element.scrollTop);
    setActive(target);
    // Focus now when the row is drawn, so a key pressed right after moves on from here; else
    // once the render has drawn it.
    const link = element.querySelector<HTMLAnchorElement>(`a[data-index="${target}"]`);
    if (link) link.focus();
    else pendingFocus.current = target;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    const index = Number(target.dataset['index'] ?? -1);
    if (index < 0) return;
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: page, PageUp: -page };
    if (event.key in moves) moveTo(index + moves[event.key]!);
    else if (event.key === 'Home') moveTo(0);
    else if (event.key === 'End') moveTo(shown.length - 1);
    else return;
    event.preventDefault();
  };

  const set = (change: Partial<Filters>) => onFilters({ ...filters, ...change });
  const sortButton = (key: SortKey, label: string) => {
    const current = sort.key === key;
    return (
      <th scope="col" aria-sort={current ? (sort.direction === 1 ? 'ascending' : 'descending') : 'none'} class={`col-${key}`}>
        <button type="button" class="sort" onClick={() => onSort({ key, direction: current ? (sort.direction === 1 ? -1 : 1) : 1 })}>
          {label}
          <span aria-hidden="true">{current ? (sort.direction === 1 ? ' ▲' : ' ▼') : ''}</span>
        </button>
      </th>
    );
  };

  return (
    <section aria-labelledby="cases-heading" class="cases">
      <h2 id="cases-heading">Cases</h2>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for="filter-status">
            Status
          </label>
          <select id="filter-status" value={filters.status} onChange={(event) => set({ status: event.currentTarget.value as Filters['status'] })}>
            <option value="all">all</option>
            <option value="failing">not passing</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-gate">
            Gate
          </label>
          <select id="filter-gate" value={filters.gate} onChange={(event) => set({ gate: event.currentTarget.value as Filters['gate'] })}>
            <option value="all">all</option>
            <option value="blocking">blocking</option>
            <option value="advisory">advisory</option>
          </select>
        </div>
        <div class="field">
          <label for="filter-tag">
            Tag
          </label>
          <select id="filter-tag" value={filters.tag} onChange={(event) => set({ tag: event.currentTarget.value })}>
            <option value="">any</option>
            {tags.map((tag) => (
              <option key={tag} value={tag}>
                {tag}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-agent">
            Agent
          </label>
          <select id="filter-agent" value={filters.agent} onChange={(event) => set({ agent: event.currentTarget.value })}>
            <option value="">any</option>
            {agents.map((agent) => (
              <option key={agent} value={agent}>
                {agent}
              </option>
            ))}
          </select>
        </div>
        <div class="field text-filter">
          <label for="filter-text">
            Text <kbd aria-hidden="true">/</kbd>
          </label>
          <input id="filter-text"
            ref={textInput}
            type="search"
            value={filters.text}
            placeholder="id, title, reason, tag"
            onInput={(event) => set({ text: event.currentTarget.value })}
          />
        </div>
      </form>
      <p class="count" aria-live="polite">
        {shown.length === all.length ? plural(all.length, 'case') : `${plural(shown.length, 'case')} of ${all.length.toLocaleString('en-US')}`}
      </p>
      <div
        class="list-scroll"
        ref={scroller}
        onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
        style={{ height: `${Math.min(Math.max(shown.length, 1) * ROW_HEIGHT + ROW_HEIGHT + 2, 0.7 * window.innerHeight)}px` }}
      >
        <table class="case-table" aria-rowcount={shown.length + 1} onKeyDown={onKeyDown}>
          <thead>
            <tr aria-rowindex={1}>
              {sortButton('triage', 'Status')}
              {sortButton('id', 'Case')}
              {sortButton('gate', 'Gate')}
              {sortButton('agent', 'Agent')}
              <th scope="col" class="col-reason">
                Reason
              </th>
              {sortButton('cost', 'Cost')}
            </tr>
          </thead>
          <tbody>
            {first > 0 ? (
              <tr aria-hidden="true" class="spacer" style={{ height: `${first * ROW_HEIGHT}px` }}>
                <td colSpan={6} />
              </tr>
            ) : null}
            {shown.slice(first, last).map((entry, offset) => {
              const index = first + offset;
              return (
                <tr key={entry.id} aria-rowindex={index + 2} class={index === active ? 'active' : undefined}>
                  <td class="col-triage">
                    <StatusBadge status={entry.status} />
                  </td>
                  <td class="col-id">
                    <a href={href('case', entry.id)} data-index={index} tabIndex={index === tabbable ? 0 : -1} onFocus={() => setActive(index)} title={entry.title}>
                      {entry.id}
                    </a>
                    {entry.metadata_only ? <span class="tag">metadata only</span> : null}
                    {entry.flaky_mark ? <span class="tag">marked flaky</span> : null}
                  </td>
                  <td class="col-gate">{entry.gate}</td>
                  <td class="col-agent">{entry.agent}</td>
                  <td class="col-reason">{entry.reason}</td>
                  <td class="col-cost">{usd(entry.cost_usd)}</td>
                </tr>
              );
            })}
            {last < shown.length ? (
              <tr aria-hidden="true" class="spacer" style={{ height: `${(shown.length - last) * ROW_HEIGHT}px` }}>
                <td colSpan={6} />
              </tr>
            ) : null}
          </tbody>
        </table>
        {shown.length === 0 ? <p class="empty">No case matches these filters.</p> : null}
      </div>
    </section>
  );
}
