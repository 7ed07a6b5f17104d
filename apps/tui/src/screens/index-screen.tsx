import { useMemo } from 'react';
import { Text } from 'ink';
import { agentIndexChoices, filterAgentIndex, readAgentIndex, type AgentIndexRow, type AgentRunStatus } from '@parley/runner';
import { formatStartTime } from '@parley/reports';
import { FilterLine } from '../components/filter-line.js';
import type { KeyHint } from '../components/footer.js';
import { ListRow } from '../components/list-row.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { Sparkline } from '../components/sparkline.js';
import { useListCursor } from '../components/use-list-cursor.js';
import { agentCells, fit, headerLine, percent, trendWidth, wrapLines } from '../index-view/agent-columns.js';
import { useAgentFilters } from '../index-view/use-agent-filters.js';
import { useNavigation } from '../navigation.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme, type Theme } from '../theme.js';
import { useServices } from '../tui-context.js';
import { useKeys } from '../components/keyboard.js';
import { matchesQuery } from '../components/filter-query.js';
import { useFilter } from '../components/use-filter.js';
import { wrapText } from '../rate/wrap-text.js';

/** Runs per agent the trend reads; the sparkline draws as many as fit. */
const TREND_RUNS = 20;
/** Lines a problem (suite that did not load, unreadable history) may take. */
const PROBLEM_LINES = 2;
/** Rows of the selected agent's line above the table. */
const SELECTED_ROWS = 2;

const KEYS: readonly KeyHint[] = [
  ['↑↓', 'move'],
  ['Enter', 'runs'],
  ['f', 'kind'],
  ['t', 'tag'],
  ['s', 'status'],
  ['x', 'clear'],
  ['r', 'all runs'],
  ['K', 'kappa'],
];

/**
 * `parley tui [suite]`: every agent of the suite, prompt-based and services together in one
 * index (a team tests both kinds side by side), with its kind, scenarios, last run's pass rate
 * and recent trend. The history is read once, synchronously, so the first frame already shows it.
 */
export function IndexScreen(_props: Record<string, unknown>) {
  const { suitePath, storePath } = useServices();
  const navigation = useNavigation();
  const theme = useTheme();
  const { columns } = useTerminalSize();
  const index = useMemo(() => readAgentIndex({ suitePath, storePath, perAgent: TREND_RUNS }), [suitePath, storePath]);
  const choices = useMemo(() => agentIndexChoices(index.rows), [index]);
  const filters = useAgentFilters();
  const text = useFilter({ rememberAs: `agents\u0000${suitePath}` });
  const rows = useMemo(
    () => filterAgentIndex(index.rows, filters.filter).filter((row) => text.text === '' || matchesQuery(agentFields(row), text.text)),
    [index, filters.filter, text.text],
  );

  const problemLines = index.problems.flatMap((problem) => wrapLines(problem, columns, PROBLEM_LINES));
  // The filter line and the table header take a row each, the selected agent's line two (it
  // wraps: after a partial run its end says so); a `/` filter one more.
  const textRows = text.editing || text.text !== '' ? 1 : 0;
  const visible = Math.max(1, useBodyRows() - problemLines.length - 2 - SELECTED_ROWS - textRows);
  const cursor = useListCursor(rows.length, visible, { isActive: !text.editing, filter: text.text });
  const selected = rows[cursor.index];

  useKeys((input, key) => {
    if (text.editing) return;
    if (key.return && selected) navigation.push({ screen: 'runs', agent: selected.name });
    else if (input === 'f') filters.cycleKind(choices.kinds);
    else if (input === 't') filters.cycleTag(choices.tags);
    else if (input === 's') filters.cycleStatus(choices.statuses);
    else if (input === 'x') filters.clear();
    else if (input === 'r') navigation.push({ screen: 'runs' });
    else if (input === 'K') navigation.push({ screen: 'kappa' });
  });

  const status = `${index.suite?.name ?? 'no suite'} · ${rows.length} of ${index.rows.length} agents${text.text !== '' ? ' (filtered)' : ''}`;
  const keys: readonly KeyHint[] = text.editing
    ? [
        ['Enter', 'keep filter'],
        ['Esc', 'clear'],
      ]
    : [...KEYS, ['/', 'filter'], ...(text.text !== '' ? ([['Esc', 'clear filter']] as KeyHint[]) : [])];
  return (
    <ScreenFrame
      title="Agents"
      status={status}
      keys={keys}
      moreKeys={[['/ text', 'only agents with text in name, type, kind, status or tags (kind:http, status:failing, tag:NAME)']]}
      backKeys={!text.editing}
      helpKey={!text.editing}
      escapeTaken={text.text !== ''}
    >
      {problemLines.map((line, number) => (
        <Text key={`problem-${number}`} color={theme.paint('yellow')}>
          {line}
        </Text>
      ))}
      <Text>
        <FilterValue label="kind" value={filters.filter.kind} /> <FilterValue label="tag" value={filters.filter.tag} />{' '}
        <FilterValue label="status" value={filters.filter.status} />
      </Text>
      <FilterLine filter={text} count={rows.length} />
      {selectedRows(selected ? selectedLine(selected) : '', columns).map((line, row) => (
        <Text key={`selected-${row}`} dimColor>
          {line}
        </Text>
      ))}
      <Text bold>{headerLine(columns)}</Text>
      {rows.length === 0 ? (
        <Text dimColor>{emptyMessage(index.rows.length, index.suite !== undefined)}</Text>
      ) : (
        rows
          .slice(cursor.offset, cursor.offset + visible)
          .map((row, position) => (
            <AgentLine key={row.name} row={row} selected={cursor.offset + position === cursor.index} width={trendWidth(columns)} theme={theme} />
          ))
      )}
    </ScreenFrame>
  );
}

function FilterValue({ label, value }: { label: string; value: string | undefined }) {
  return (
    <Text>
      {label}: <Text bold={value !== undefined}>{value ?? 'all'}</Text>
    </Text>
  );
}

function AgentLine({ row, selected, width, theme }: { row: AgentIndexRow; selected: boolean; width: number; theme: Theme }) {
  const cells = agentCells(row);
  return (
    <ListRow selected={selected}>
      {cells.name} {cells.type} {cells.kind} {cells.scenarios} {cells.last} <Text color={statusColour(theme, row.status)}>{cells.status}</Text>{' '}
      <Sparkline values={row.trend} width={width} colour={theme.paint('cyan')} />
    </ListRow>
  );
}

/**
 * The selected agent's line wrapped at spaces onto SELECTED_ROWS rows (the last one cut with …
 * when more would be needed), blank rows filling the rest so that the table does not move.
 */
function selectedRows(text: string, columns: number): string[] {
  const lines = wrapText(text, columns);
  const rows = lines.slice(0, SELECTED_ROWS);
  if (lines.length > SELECTED_ROWS) rows[SELECTED_ROWS - 1] = fit(lines.slice(SELECTED_ROWS - 1).join(' '), columns);
  while (rows.length < SELECTED_ROWS) rows.push(' ');
  return rows.map((row) => (row === '' ? ' ' : row));
}

/** What the table has no room for: the selected agent's last run and its tags. */
function selectedLine(row: AgentIndexRow): string {
  if (row.latest && row.lastRun) {
    const { latest, lastRun } = row;
    const partial = `last run ${lastRun.run_id} was partial: ${lastRun.scenarios} of ${row.scenarios ?? '?'} scenarios, ${percent(lastRun.passRate)} passing`;
    return `${row.name}: newest result of each scenario ${percent(latest.passRate)} of ${latest.scenarios} (${latest.failing} failing) · ${partial}`;
  }
  const last = row.lastRun
    ? `last run ${row.lastRun.run_id} at ${formatStartTime(row.lastRun.started_at)}: ${percent(row.lastRun.passRate)} of ${row.lastRun.scenarios}`
    : 'no run yet';
  const tags = row.tags.length > 0 ? ` · tags ${row.tags.join(', ')}` : '';
  return `${row.name}: ${last}${tags}`;
}

function statusColour(theme: Theme, status: AgentRunStatus) {
  return theme.status(status === 'passing' ? 'pass' : status === 'failing' ? 'fail' : 'skipped');
}

function emptyMessage(total: number, suiteLoaded: boolean): string {
  if (total > 0) return 'No agent matches these filters (x clears them).';
  return suiteLoaded ? 'This suite has no agents.' : 'No agents: no suite loaded and no stored runs.';
}

/** What `/` searches in an agent's row. */
function agentFields(row: AgentIndexRow): Record<string, string | undefined> {
  return { name: row.name, type: row.family ?? undefined, kind: row.kind ?? undefined, status: row.status, tag: row.tags.join(' ') };
}
