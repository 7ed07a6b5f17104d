import { useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import type { Status } from '@parley/core';
import { formatDuration, formatStartTime, formatUsd, runState, type RunRow } from '@parley/store';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { useListCursor } from '../components/use-list-cursor.js';
import { useNavigation } from '../navigation.js';
import { useTheme } from '../theme.js';
import { fit } from '../triage/styled-lines.js';
import { useRememberedCursor } from '../triage/use-remembered-cursor.js';
import { useStoreRead } from '../triage/use-store-read.js';
import { useServices } from '../tui-context.js';
import { useKeys } from '../components/keyboard.js';
import { matchesQuery } from '../components/filter-query.js';
import { useFilter } from '../components/use-filter.js';
import type { KeyHint } from '../components/footer.js';

/** Runs read per page: the first frame reads one page whatever the size of the history. */
export const RUNS_PAGE = 200;

/** Body rows around the list: column header, two lines about the selected run. */
const CHROME_ROWS = 3;

const COLUMNS = { started: 11, status: 11, count: 4, cost: 8, duration: 8 } as const;

/** The count columns, in triage order after the passes. */
const COUNTED: ReadonlyArray<readonly [Status, string]> = [
  ['pass', 'pass'],
  ['fail', 'fail'],
  ['error', 'err'],
  ['flaky', 'flky'],
  ['warn', 'warn'],
  ['skipped', 'skip'],
];

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
  const { storePath } = useServices();
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
  const visible = Math.max(1, bodyRows - CHROME_ROWS - filterRows);
  const cursor = useListCursor(runs.length, visible);
  const selected = runs[cursor.index];
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
      {filterRows > 0 ? (
        <Text wrap="truncate-start">
          <Text bold>filter&gt; </Text>
          {filter.text}
          {filter.editing ? <Text inverse> </Text> : <Text dimColor>{`  (${runs.length} match${more ? ' so far' : ''})`}</Text>}
        </Text>
      ) : null}
      {read.kind === 'failed' ? (
        <Text color={theme.status('error')}>Cannot read the run history: {read.message}</Text>
      ) : runs.length === 0 && filter.text !== '' ? (
        <Text>{more ? 'No run matches among the runs read so far; reading more…' : 'No run matches the filter; Esc clears it.'}</Text>
      ) : runs.length === 0 ? (
        <EmptyHistory agent={agent} />
      ) : (
        <Box flexDirection="column">
          <Text bold>
            {'  '}
            {[
              fit('started', COLUMNS.started),
              fit('status', COLUMNS.status),
              ...COUNTED.map(([, label]) => fit(label, COLUMNS.count, 'right')),
              fit('cost', COLUMNS.cost, 'right'),
              fit('duration', COLUMNS.duration, 'right'),
              ' mode',
            ].join(' ')}
          </Text>
          {runs.slice(cursor.offset, cursor.offset + visible).map((listed, position) => {
            const index = cursor.offset + position;
            const { run } = listed;
            const current = index === cursor.index;
            const state = runState(run);
            return (
              <Text key={run.id} wrap="truncate-end" inverse={current}>
                {current ? '> ' : '  '}
                {fit(formatStartTime(run.started_at).slice(5), COLUMNS.started)}{' '}
                <Text color={theme.runState(state)} bold={state === 'fail' || state === 'error' || state === 'interrupted'}>
                  {fit(state, COLUMNS.status)}
                </Text>{' '}
                {countCells(listed)} {fit(formatUsd(run.cost?.usd), COLUMNS.cost, 'right')}{' '}
                {fit(formatDuration(run.duration_ms), COLUMNS.duration, 'right')} {run.mode}
              </Text>
            );
          })}
          {selected ? (
            <Text dimColor wrap="truncate-end">
              {[
                `run ${selected.run.id}`,
                `suite ${selected.run.suite}`,
                `${formatStartTime(selected.run.started_at)} UTC`,
                ...(selected.run.git_sha ? [`git ${selected.run.git_sha.slice(0, 7)}`] : []),
              ].join(' · ')}
            </Text>
          ) : null}
          {selected && agent !== undefined ? (
            <Text dimColor wrap="truncate-end">{`${selected.scenarios} of the run's ${selected.run.scenario_count} scenarios are ${agent}'s`}</Text>
          ) : null}
        </Box>
      )}
    </ScreenFrame>
  );
}

/** What `/` searches in a run. */
function runFields(run: RunRow): Record<string, string | undefined> {
  return { id: run.id, suite: run.suite, status: runState(run), mode: run.mode, git: run.git_sha ?? undefined };
}

function EmptyHistory({ agent }: { agent: string | undefined }) {
  return (
    <Box flexDirection="column">
      <Text>{agent === undefined ? 'No runs stored yet.' : `No stored run has scenarios of ${agent} yet.`}</Text>
      <Text> </Text>
      <Text>Make one with `parley run` in the suite folder (replays the recordings, no keys needed);</Text>
      <Text>every run is kept in .parley/parley.db and listed here.</Text>
    </Box>
  );
}

/** The run's counts (the agent's, for one agent); `·` for none, `-` while a run has no counts. */
function countCells({ counts }: ListedRun): string {
  return COUNTED.map(([status]) => {
    const count = counts?.[status];
    return fit(count === undefined ? '-' : count === 0 ? '·' : String(count), COLUMNS.count, 'right');
  }).join(' ');
}
