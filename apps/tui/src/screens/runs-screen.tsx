import { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import type { Status } from '@parley/core';
import { formatDuration, formatStartTime, formatUsd, runSelection } from '@parley/reports';
import { runState, type RunRow } from '@parley/store';
import { FilterLine } from '../components/filter-line.js';
import { ListRow } from '../components/list-row.js';
import { useTerminalSize } from '../terminal-size.js';
import { wrapText } from '../rate/wrap-text.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { useListCursor } from '../components/use-list-cursor.js';
import { useNavigation } from '../navigation.js';
import { useTheme } from '../theme.js';
import { fit } from '../triage/styled-lines.js';
import { useRememberedCursor } from '../triage/use-remembered-cursor.js';
import { useStoreRead } from '../triage/use-store-read.js';
import { parleyOf, useServices } from '../tui-context.js';
import { useKeys } from '../components/keyboard.js';
import { matchesQuery } from '../components/filter-query.js';
import { useFilter } from '../components/use-filter.js';
import type { KeyHint } from '../components/footer.js';

/** Runs read per page: the first frame reads one page whatever the size of the history. */
export const RUNS_PAGE = 200;

/** Lines about the selected run under the list (its details wrap onto the second). */
const DETAIL_ROWS = 2;

/**
 * Body rows around the list: column header and the lines about the selected run; opened for one
 * agent, one more for how many of the run's scenarios are the agent's.
 */
function chromeRows(agent: string | undefined): number {
  return 1 + DETAIL_ROWS + (agent === undefined ? 0 : 1);
}

const COLUMNS = { started: 11, status: 11, cost: 7, duration: 8, mode: 6 } as const;
/** The suite column takes what the others leave, within these widths. */
const SUITE_WIDTH = { least: 8, most: 20 } as const;

/** The count columns, in triage order after the passes, each as wide as its label. */
const COUNTED: ReadonlyArray<readonly [Status, string]> = [
  ['pass', 'pass'],
  ['fail', 'fail'],
  ['error', 'err'],
  ['flaky', 'flk'],
  ['warn', 'wrn'],
  ['skipped', 'skp'],
];

/** Cells of a row besides the suite and duration columns: marker, started, status, counts, cost, mode and the spaces between. */
const FIXED_WIDTH = 2 + (COLUMNS.started + 1) + (COLUMNS.status + 1) + COUNTED.reduce((sum, [, label]) => sum + label.length + 1, 0) + (COLUMNS.cost + 1) + COLUMNS.mode;

/**
 * The suite column's width, and whether the duration column fits too: the suite (which "All
 * runs" mixes) comes first; the duration goes to the line under the list when 80 columns leave no
 * room for it.
 */
function runsLayout(columns: number, longestSuite: number): { suite: number; duration: boolean } {
  const wanted = Math.max(SUITE_WIDTH.least, Math.min(SUITE_WIDTH.most, longestSuite));
  const room = columns - FIXED_WIDTH - 1;
  if (room - (COLUMNS.duration + 1) >= wanted) return { suite: wanted, duration: true };
  return { suite: Math.max(SUITE_WIDTH.least, Math.min(wanted, room)), duration: false };
}

/** One line of the list: the run, and the counts it is listed with (the agent's, for one agent). */
interface ListedRun {
  run: RunRow;
  counts: Record<Status, number> | undefined;
  scenarios: number;
}

/**
 * The run history, newest first: status, counts, cost, duration, mode and start time of each run.
 * Opened for one agent (from the index) it lists only the runs with that agent's scenarios, with
 * that agent's counts. Enter opens the run.
 */
export function RunsScreen({ agent }: { agent?: string }) {
  const navigation = useNavigation();
  const theme = useTheme();
  const bodyRows = useBodyRows();
  const services = useServices();
  const { storePath } = services;
  const [limit, setLimit] = useState(RUNS_PAGE);
  const read = useStoreRead(
    (store): ListedRun[] =>
      agent === undefined
        ? store.listRuns({ limit: limit + 1 }).map((run) => ({ run, counts: run.counts, scenarios: run.scenario_count }))
        : store.listRunsOfAgent(agent, { limit: limit + 1 }).map((run) => ({ run, counts: run.agent_counts, scenarios: run.agent_scenarios })),
    [agent, limit],
  );
  const fetched = read.kind === 'read' ? read.value : [];
  const more = fetched.length > limit;
  const filter = useFilter();
  const all = more ? fetched.slice(0, limit) : fetched;
  const runs = filter.text === '' ? all : all.filter((listed) => matchesQuery(runFields(listed.run), filter.text));
  const filterRows = filter.editing || filter.text !== '' ? 1 : 0;
  const visible = Math.max(1, bodyRows - chromeRows(agent) - filterRows);
  const cursor = useListCursor(runs.length, visible, { filter: filter.text });
  const selected = runs[cursor.index];
  const { columns } = useTerminalSize();
  // From the rows already read: no query per run.
  const layout = runsLayout(columns, Math.max(0, ...all.map((listed) => listed.run.suite.length)));
  useRememberedCursor(`${storePath}\u0000${agent ?? ''}`, cursor);

  // The next page is read when the cursor comes within a screen of the end of what was read.
  const nearEnd = more && cursor.index >= runs.length - visible;
  useEffect(() => {
    if (nearEnd) setLimit((current) => current + RUNS_PAGE);
  }, [nearEnd, fetched.length]);

  useKeys((_input, key) => {
    if (key.return && selected) navigation.push({ screen: 'run', runId: selected.run.id });
  });

  const title = agent === undefined ? 'Runs' : `Runs of ${agent}`;
  const status = runs.length === 0 ? undefined : `${cursor.index + 1}/${runs.length}${more ? '+' : ''} runs${filter.text !== '' ? ' (filtered)' : ''}`;
  const keys: KeyHint[] = filter.editing
    ? [
        ['Enter', 'keep filter'],
        ['Esc', 'clear'],
      ]
    : [...(runs.length === 0 ? [] : ([['↑↓', 'move'], ['Enter', 'open run']] as KeyHint[])), ['/', 'filter'], ...(filter.text !== '' ? [['Esc', 'clear filter'] as KeyHint] : [])];
  const moreKeys: KeyHint[] = [
    ['g G', 'first / last run'],
    ['PgUp PgDn', 'a page up / down'],
    ['/ text', 'only runs with text in id, suite, status, mode or git (status:fail, suite:NAME, mode:live)'],
  ];

  return (
    <ScreenFrame title={title} {...(status ? { status } : {})} keys={keys} moreKeys={moreKeys} backKeys={!filter.editing} escapeTaken={filter.text !== ''}>
      <FilterLine filter={filter} count={runs.length} matches={`${runs.length} match${more ? ' so far' : ''}`} />
      {read.kind === 'failed' ? (
        <Text color={theme.status('error')}>Cannot read the run history: {read.message}</Text>
      ) : runs.length === 0 && filter.text !== '' ? (
        <Text>{more ? 'No run matches among the runs read so far; reading more…' : 'No run matches the filter; Esc clears it.'}</Text>
      ) : runs.length === 0 ? (
        <EmptyHistory agent={agent} parley={parleyOf(services)} />
      ) : (
        <Box flexDirection="column">
          <Text bold>
            {'  '}
            {[
              fit('started', COLUMNS.started),
              fit('suite', layout.suite),
              fit('status', COLUMNS.status),
              ...COUNTED.map(([, label]) => label),
              fit('cost', COLUMNS.cost, 'right'),
              ...(layout.duration ? [fit('duration', COLUMNS.duration, 'right')] : []),
              'mode',
            ].join(' ')}
          </Text>
          {runs.slice(cursor.offset, cursor.offset + visible).map((listed, position) => {
            const index = cursor.offset + position;
            const { run } = listed;
            const current = index === cursor.index;
            const state = runState(run);
            return (
              <ListRow key={run.id} selected={current}>
                {fit(formatStartTime(run.started_at).slice(5), COLUMNS.started)} {fit(run.suite, layout.suite)}{' '}
                <Text color={theme.runState(state)} bold={state === 'fail' || state === 'error' || state === 'interrupted'}>
                  {fit(state, COLUMNS.status)}
                </Text>{' '}
                {countCells(listed)} {fit(formatUsd(run.cost?.usd), COLUMNS.cost, 'right')}{' '}
                {layout.duration ? `${fit(formatDuration(run.duration_ms), COLUMNS.duration, 'right')} ` : ''}
                {run.mode}
              </ListRow>
            );
          })}
          {selected
            ? // The selected run's details wrap (a long suite name must not push them off the line),
              // on two lines whether the list is of all runs or of one agent's.
              detailLines(
                wrapText(
                  [
                    `run ${selected.run.id}`,
                    ...(runSelection(selected.run.options) ? [`partial: ${runSelection(selected.run.options)}`] : []),
                    `suite ${selected.run.suite}`,
                    `${formatStartTime(selected.run.started_at)} UTC`,
                    ...(layout.duration ? [] : [`took ${formatDuration(selected.run.duration_ms)}`]),
                    ...(selected.run.git_sha ? [`git ${selected.run.git_sha.slice(0, 7)}`] : []),
                  ].join(' · '),
                  columns,
                ),
                columns,
              ).map((line, index) => (
                <Text key={`detail-${index}`} dimColor wrap="truncate-end">
                  {line}
                </Text>
              ))
            : null}
          {selected && agent !== undefined ? (
            <Text dimColor wrap="truncate-end">{`${selected.scenarios} of the run's ${selected.run.scenario_count} scenarios are ${agent}'s`}</Text>
          ) : null}
        </Box>
      )}
    </ScreenFrame>
  );
}

/** The first DETAIL_ROWS lines, the last one ending in … when more were cut. */
function detailLines(lines: string[], columns: number): string[] {
  if (lines.length <= DETAIL_ROWS) return lines;
  const shown = lines.slice(0, DETAIL_ROWS);
  shown[DETAIL_ROWS - 1] = `${Array.from(shown[DETAIL_ROWS - 1]!).slice(0, Math.max(0, columns - 1)).join('')}…`;
  return shown;
}

/** What `/` searches in a run. */
function runFields(run: RunRow): Record<string, string | undefined> {
  return { id: run.id, suite: run.suite, status: runState(run), mode: run.mode, git: run.git_sha ?? undefined };
}

function EmptyHistory({ agent, parley }: { agent: string | undefined; parley: string }) {
  return (
    <Box flexDirection="column">
      <Text>{agent === undefined ? 'No runs stored yet.' : `No stored run has scenarios of ${agent} yet.`}</Text>
      <Text> </Text>
      {/* One paragraph, which Ink wraps to the terminal's width. */}
      <Text>
        {agent === undefined
          ? `Make one with \`${parley} run\` in the suite folder (it replays the recordings: no keys needed).`
          : `Make one with \`${parley} run --agent ${agent}\` in the suite folder.`}{' '}
        Every run is kept in .parley/parley.db and listed here.
      </Text>
    </Box>
  );
}

/** The run's counts (the agent's, for one agent); `·` for none, `-` while a run has no counts. */
function countCells({ counts }: ListedRun): string {
  return COUNTED.map(([status, label]) => {
    const count = counts?.[status];
    return fit(count === undefined ? '-' : count === 0 ? '·' : String(count), label.length, 'right');
  }).join(' ');
}
