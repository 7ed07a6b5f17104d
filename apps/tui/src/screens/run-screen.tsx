import { useState } from 'react';
import { Box, Text } from 'ink';
import type { ScenarioResult } from '@parley/core';
import { triageOrder } from '@parley/gate';
import { formatDuration, formatStartTime, formatUsd, oneLine, withholdScenarioContent } from '@parley/reports';
import { runState, type RunRow } from '@parley/store';
import { FilterLine } from '../components/filter-line.js';
import { ListRow } from '../components/list-row.js';
import { matchesQuery } from '../components/filter-query.js';
import type { KeyHint } from '../components/footer.js';
import { useFilter } from '../components/use-filter.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { useListCursor } from '../components/use-list-cursor.js';
import { useNavigation } from '../navigation.js';
import { wrapText } from '../rate/wrap-text.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { fit, fitCaseId } from '../triage/styled-lines.js';
import { useRememberedCursor } from '../triage/use-remembered-cursor.js';
import { useStoreRead } from '../triage/use-store-read.js';
import { useServices } from '../tui-context.js';
import { useKeys } from '../components/keyboard.js';
import { AgentComparisonTable, comparisonLines } from '../components/agent-comparison-table.js';
import { compareAgents } from '@parley/compare';
import type { AgentComparisonReport } from '@parley/reports';

/** Body rows besides the list: run summary, column header, and up to three lines of the selected reason. */
const CHROME_ROWS = 5;
const REASON_LINES = 3;
const COLUMNS = { status: 8, scenario: 26, agent: 10 } as const;
/** The reason column never gets narrower than this for a long scenario id. */
const MIN_REASON = 30;

interface RunView {
  run: RunRow | undefined;
  /** In triage order, `metadata_only` ones without their content. */
  results: ScenarioResult[];
  /** Scenario ids a person marked flaky in this suite. */
  flaky: Set<string>;
  /** A comparison run's agents side by side. */
  comparison?: AgentComparisonReport;
}

/**
 * One run's scenarios for triage: failing and erroring ones first, then flaky, then warnings, then
 * the rest (`triageOrder`), each with status, agent and reason. Enter opens a scenario.
 */
export function RunScreen({ runId }: { runId: string }) {
  const navigation = useNavigation();
  const theme = useTheme();
  const bodyRows = useBodyRows();
  const { storePath } = useServices();
  const { columns } = useTerminalSize();
  const read = useStoreRead((store): RunView => {
    const run = store.getRun(runId);
    if (run === undefined) return { run, results: [], flaky: new Set() };
    // The list never shows a metadata_only transcript; the store leaves it out already.
    const results = triageOrder(store.getScenarioResults(run.id, { omitMetadataOnlyTranscripts: true })).map(withholdScenarioContent);
    const flaky = new Set(store.flakyMarks(run.suite).map((mark) => mark.scenario_id));
    const agents = run.options['agents'];
    const compared = Array.isArray(agents) && agents.length > 1 && agents.every((agent) => typeof agent === 'string');
    return { run, results, flaky, ...(compared ? { comparison: compareAgents(results, agents) } : {}) };
  }, [runId]);
  const view = read.kind === 'read' ? read.value : undefined;
  const filter = useFilter({ rememberAs: `${storePath}\u0000${runId}` });
  const all = view?.results ?? [];
  const results = filter.text === '' ? all : all.filter((result) => matchesQuery(scenarioFields(result, view?.flaky), filter.text));
  const filterRows = filter.editing || filter.text !== '' ? 1 : 0;
  const comparisonRows = view?.comparison ? comparisonLines(view.comparison, columns).length : 0;
  const visible = Math.max(1, bodyRows - CHROME_ROWS - comparisonRows - filterRows);
  const cursor = useListCursor(results.length, visible, { filter: filter.text });
  const selected = results[cursor.index];
  useRememberedCursor(`${storePath}\u0000${runId}`, cursor);

  // `d` and `a` act on one scenario's re-recording: here they say where (and why not, for a replay).
  const [hint, setHint] = useState<string | undefined>(undefined);
  useKeys((input, key) => {
    const run = view?.run;
    setHint(undefined);
    if (key.return && selected && run) navigation.push({ screen: 'scenario', runId: run.id, scenarioId: selected.scenario_id });
    else if (input === 'R' && selected && run) navigation.push({ screen: 'rerun', runId: run.id, scenarioId: selected.scenario_id });
    else if ((input === 'd' || input === 'a') && run) {
      setHint(
        run.mode === 'replay'
          ? 'no re-recording: a replay run records nothing (live and record runs do), so there is no diff to show or accept'
          : `${input === 'd' ? 'd shows the diff' : 'a accepts the re-recording'} of one scenario: Enter opens ${selected?.scenario_id ?? 'it'}, then ${input}`,
      );
    }
  });

  const keys: KeyHint[] = filter.editing
    ? [
        ['Enter', 'keep filter'],
        ['Esc', 'clear'],
      ]
    : [
        ...(results.length === 0 ? [] : ([['↑↓', 'move'], ['Enter', 'open scenario'], ['R', 're-run']] as KeyHint[])),
        ...(all.length > 0 ? ([['/', 'filter']] as KeyHint[]) : []),
        ...(filter.text !== '' ? ([['Esc', 'clear filter']] as KeyHint[]) : []),
      ];
  const moreKeys: KeyHint[] = [
    ['g G', 'first / last scenario'],
    ['/ text', 'only scenarios with text in id, status, agent or tags (an id jumps to it)'],
    ['/failing', 'failures only (fail and error)'],
    ['/status:NAME', 'one status; agent:NAME and tag:NAME likewise'],
  ];
  const status = results.length === 0 ? runId : `${cursor.index + 1}/${results.length} scenarios${filter.text !== '' ? ' (filtered)' : ''}`;
  // The scenario column grows to the longest id where the terminal has room (the reason keeps 30).
  const longestId = Math.max(0, ...all.map((result) => result.scenario_id.length));
  const scenarioWidth = Math.max(COLUMNS.scenario, Math.min(longestId, columns - (2 + COLUMNS.status + 1 + 1 + COLUMNS.agent + 1) - MIN_REASON));
  const reasonWidth = columns - (2 + COLUMNS.status + 1 + scenarioWidth + 1 + COLUMNS.agent + 1);

  let body;
  if (read.kind === 'failed') {
    body = <Text color={theme.status('error')}>Cannot read the run history: {read.message}</Text>;
  } else if (read.kind === 'missing' || view?.run === undefined) {
    body = <Text>No run {runId} in the run history.</Text>;
  } else {
    const run = view.run;
    body = (
      <Box flexDirection="column">
        <Text wrap="truncate-end">
          <Text bold color={theme.runState(runState(run))}>
            {runState(run)}
          </Text>
          {` · ${run.id} · ${run.mode} · ${formatStartTime(run.started_at)} · ${formatDuration(run.duration_ms)} · ${formatUsd(run.cost?.usd)}`}
        </Text>
        {view.comparison ? <AgentComparisonTable comparison={view.comparison} width={columns} /> : null}
        <FilterLine filter={filter} count={results.length} />
        {all.length === 0 ? (
          <Text>This run saved no scenario results (it was interrupted before the first one finished).</Text>
        ) : results.length === 0 ? (
          <Text>No scenario matches the filter; Esc clears it.</Text>
        ) : (
          <>
            <Text bold>
              {'  '}
              {[fit('status', COLUMNS.status), fit('scenario', scenarioWidth), fit('agent', COLUMNS.agent), 'reason'].join(' ')}
            </Text>
            {results.slice(cursor.offset, cursor.offset + visible).map((result, position) => {
              const index = cursor.offset + position;
              const current = index === cursor.index;
              const marked = view.flaky.has(result.scenario_id);
              const statusText = `${result.status}${result.gate === 'advisory' ? ' adv' : ''}`;
              return (
                <ListRow key={result.scenario_id} selected={current}>
                  <Text color={theme.status(result.status)} bold={result.status === 'fail' || result.status === 'error'}>
                    {fit(statusText, COLUMNS.status)}
                  </Text>{' '}
                  {fitCaseId(result.scenario_id, scenarioWidth)} {fit(result.agent, COLUMNS.agent)}{' '}
                  {oneLine(`${marked ? '[marked flaky] ' : ''}${result.reason}`, Math.max(1, reasonWidth))}
                </ListRow>
              );
            })}
            {hint !== undefined ? (
              <Text wrap="wrap" color={theme.paint('yellow')}>
                {hint}
              </Text>
            ) : selected ? (
              <SelectedReason result={selected} width={columns} marked={view.flaky.has(selected.scenario_id)} />
            ) : null}
          </>
        )}
      </Box>
    );
  }

  return (
    <ScreenFrame title="Run" status={status} keys={keys} moreKeys={moreKeys} backKeys={!filter.editing} escapeTaken={filter.text !== ''}>
      {body}
    </ScreenFrame>
  );
}

/** What `/` searches in a scenario's row: `failing` for a failure, so that `/failing` keeps only those. */
function scenarioFields(result: ScenarioResult, flaky: Set<string> | undefined): Record<string, string | undefined> {
  const failing = result.status === 'fail' || result.status === 'error';
  return {
    id: result.scenario_id,
    status: result.status,
    agent: result.agent,
    tag: result.tags.join(' '),
    gate: result.gate,
    state: [failing ? 'failing' : '', flaky?.has(result.scenario_id) ? 'marked-flaky' : ''].join(' ').trim(),
  };
}

/** The selected scenario's whole reason under the list (the column cuts it). */
function SelectedReason({ result, width, marked }: { result: ScenarioResult; width: number; marked: boolean }) {
  const gate = result.gate === 'advisory' ? 'advisory (never fails the run)' : 'blocking';
  const text = `${result.scenario_id} · ${gate}${marked ? ' · marked flaky' : ''}: ${result.reason}`;
  const lines = wrapText(text, width);
  const shown = lines.slice(0, REASON_LINES);
  if (lines.length > REASON_LINES) shown[REASON_LINES - 1] = oneLine(`${shown[REASON_LINES - 1]} …`, width);
  return (
    <Box flexDirection="column" marginTop={0}>
      {shown.map((line, index) => (
        <Text key={index} dimColor wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
