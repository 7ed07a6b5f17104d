import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import { EXIT_INTERRUPTED, triageOrder } from '@parley/gate';
import type { RunOutcome } from '@parley/runner';
import type { KeyHint } from '../components/footer.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { ConfigErrorLines, finishedLines, runningLines } from '../live/live-run-lines.js';
import { isFailure, type ScenarioProgress } from '../live/live-run-progress.js';
import { liveRunSessionFor, type LiveRunSession } from '../live/live-run-session.js';
import { FailureRow, ScenarioRow } from '../live/scenario-rows.js';
import { useNavigation } from '../navigation.js';
import { useTerminalSize } from '../terminal-size.js';
import { useServices } from '../tui-context.js';
import { useKeys } from '../components/keyboard.js';

/**
 * Failure rows shown above the list at least (when there are that many): more when the terminal
 * has rows to spare after the list's own share; the rest are counted (and listed first once the
 * run is over).
 */
const MIN_FAILURE_ROWS = 5;
/** Rows the list keeps for itself before the failures take more than `MIN_FAILURE_ROWS`. */
const MIN_LIST_ROWS = 5;

/**
 * `parley tui run`: the run as it goes (progress per scenario, spend against the budget, failures
 * as they happen), then its summary. Ctrl-C stops it as in `parley run`: the first one lets the
 * finished results be kept and reported, a second one quits at once.
 */
export function LiveRunScreen() {
  const services = useServices();
  const navigation = useNavigation();
  const { columns } = useTerminalSize();
  const bodyRows = useBodyRows();
  const session = liveRunSessionFor(services);
  useSyncExternalStore(session.subscribe, () => session.version);
  useEffect(() => session.start(), [session]);
  const end = session.end;
  useSecondTicks(end === undefined);
  const [offset, setOffset] = useState(0);

  const finalRows = useMemo(() => (end?.kind === 'finished' ? reportedRows(session, end.outcome) : []), [session, end]);
  const failures = end?.kind === 'finished' ? finalRows.flatMap((row) => (row.state === 'finished' && isFailure(row.result.status) ? [row.result] : [])) : session.progress.failures();
  const top =
    end?.kind === 'finished'
      ? finishedLines(end.outcome, services.cwd, services.runOptions?.resume === undefined ? 0 : Math.max(0, end.outcome.report.results.length - session.progress.finished))
      : runningLines(session, services.clock.monotonicMs() - session.startedMs, columns);
  // Failures stay in view above the list: the latest while the run goes, the most severe after it.
  // They take the rows the list does not need (its header, up to MIN_LIST_ROWS rows, a scroll line).
  const others = end === undefined ? session.progress.total : finalRows.length - failures.length;
  const spare = bodyRows - top.length - 2 - Math.min(Math.max(0, others), MIN_LIST_ROWS) - 2;
  const failureRows = Math.min(failures.length, Math.max(MIN_FAILURE_ROWS, spare));
  const pinned = end === undefined ? failures.slice(-failureRows) : failures.slice(0, failureRows);
  const failureLines = failures.length > 0 ? 1 + failureRows + (failures.length > failureRows ? 1 : 0) : 0;
  const pinnedIds = new Set(pinned.map((result) => result.scenario_id));
  // Once the run is over, a failure pinned above is not listed again below.
  const listed = finalRows.filter((row) => !pinnedIds.has(row.id));
  const rowCount = end === undefined ? session.progress.total : listed.length;
  const listHeight = Math.max(1, bodyRows - top.length - failureLines - 1);
  const scrollable = rowCount > listHeight;
  const visible = scrollable ? listHeight - 1 : listHeight;
  const maxOffset = Math.max(0, rowCount - visible);
  const shownOffset = Math.min(offset, maxOffset);
  const shown = end === undefined ? session.progress.liveRows(shownOffset + visible).slice(shownOffset) : listed.slice(shownOffset, shownOffset + visible);
  const idWidth = Math.min(Math.max(8, ...shown.map((row) => row.id.length), ...pinned.map((result) => result.scenario_id.length)), Math.floor(columns * 0.4));

  useKeys((input, key) => {
    if (key.ctrl && input === 'c') {
      if (end) navigation.quit();
      else if (!session.stopping) session.stop();
      else if (services.exitNow) services.exitNow(EXIT_INTERRUPTED);
      else {
        services.setExitCode(EXIT_INTERRUPTED);
        navigation.quit();
      }
      return;
    }
    if (key.return && end?.kind === 'finished') {
      navigation.push({ screen: 'run', runId: end.outcome.run_id });
      return;
    }
    const page = Math.max(1, visible - 1);
    if (key.upArrow || input === 'k') setOffset(Math.max(0, shownOffset - 1));
    else if (key.downArrow || input === 'j') setOffset(Math.min(maxOffset, shownOffset + 1));
    else if (key.pageUp) setOffset(Math.max(0, shownOffset - page));
    else if (key.pageDown) setOffset(Math.min(maxOffset, shownOffset + page));
  });

  const { progress } = session;
  const status = [progress.suite, progress.mode, progress.runId && `run ${progress.runId}`].filter(Boolean).join(' · ');
  if (end?.kind === 'config-error' || end?.kind === 'failed') {
    return (
      <ScreenFrame title="Live run" status={status} keys={[]}>
        {end.kind === 'config-error' ? (
          <ConfigErrorLines issues={end.issues} cwd={services.cwd} rows={bodyRows} />
        ) : (
          <Text wrap="wrap">Run failed · exit 1: {end.message}</Text>
        )}
      </ScreenFrame>
    );
  }

  const keys: KeyHint[] = end
    ? [['Enter', 'triage'], ...(scrollable ? [['↑↓', 'scroll'] as KeyHint] : [])]
    : [session.stopping ? ['Ctrl-C', 'quit now'] : ['Ctrl-C', 'stop'], ...(scrollable ? [['↑↓', 'scroll'] as KeyHint] : [])];
  const hiddenAfter = rowCount - shownOffset - shown.length;
  return (
    <ScreenFrame title="Live run" status={status} keys={keys} backKeys={end !== undefined}>
      {top}
      {pinned.length > 0 ? (
        <Box flexDirection="column">
          <Text bold>Failures ({failures.length})</Text>
          {pinned.map((result) => (
            <FailureRow key={result.scenario_id} result={result} idWidth={idWidth} />
          ))}
          {failures.length > pinned.length ? (
            <Text dimColor>
              … {failures.length - pinned.length} {end === undefined ? 'earlier (all are listed first when the run is over)' : 'more, first in the list below'}
            </Text>
          ) : null}
        </Box>
      ) : null}
      <Text bold>
        {end !== undefined && pinned.length > 0 ? 'Other scenarios' : 'Scenarios'}
        {scrollable ? <Text dimColor>{` ${shownOffset + 1}–${shownOffset + shown.length} of ${rowCount}`}</Text> : null}
      </Text>
      {shown.map((row) => (
        <ScenarioRow key={row.id} row={row} idWidth={idWidth} ended={end !== undefined} />
      ))}
      {scrollable ? <Text dimColor>{hiddenAfter > 0 ? `… ${hiddenAfter} more below` : '(end of list)'}</Text> : null}
    </ScreenFrame>
  );
}

/** The list once the run is over: failures first, each with the report's (redacted) result; then what never finished. */
function reportedRows(session: LiveRunSession, outcome: RunOutcome): ScenarioProgress[] {
  // Every result of the report, a resumed run's earlier ones too (the status line counts them all),
  // in the run screen's order; then what this process started or planned and never finished.
  const finished = triageOrder(outcome.report.results).map((result): ScenarioProgress => ({ id: result.scenario_id, state: 'finished', result }));
  const reported = new Set(finished.map((row) => row.id));
  return [...finished, ...session.progress.finalRows().filter((row) => row.state !== 'finished' && !reported.has(row.id))];
}

/** Draws again every second while `active` (the elapsed time moves even when no event comes). */
function useSecondTicks(active: boolean): void {
  const [, setTicks] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTicks((ticks) => ticks + 1), 1000);
    return () => clearInterval(timer);
  }, [active]);
}
