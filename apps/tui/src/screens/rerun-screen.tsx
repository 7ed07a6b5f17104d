import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import { withholdScenarioContent } from '@parley/reports';
import {
  estimateRerunCost,
  locateTriage,
  MAX_RERUN_REPEAT,
  rerunModes,
  rerunOptions,
  storedRepeat,
  type RerunMode,
  type TriageLocation,
} from '@parley/runner';
import type { RunRow } from '@parley/store';
import type { KeyHint } from '../components/footer.js';
import { useKeys } from '../components/keyboard.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { formatUsd, STATUS_MARKS } from '../live/live-format.js';
import { useNavigation } from '../navigation.js';
import { wrapText } from '../rate/wrap-text.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { messageOf } from '../triage/actions/triage-facts.js';
import { beforeAfterLines, type ResultSide } from '../triage/rerun/before-after-lines.js';
import { rerunSessionFor } from '../triage/rerun/rerun-session.js';
import { maxOffset, StyledLines } from '../triage/styled-lines.js';
import { useStoreRead } from '../triage/use-store-read.js';
import { useServices } from '../tui-context.js';

interface Earlier {
  run: RunRow;
  result: ResultSide['result'];
}

/** Lines of the earlier reason shown above the choice. */
const REASON_LINES = 3;

/**
 * `R` on the run or scenario screen: the scenario run again (replayed, or live against the models,
 * N times to confirm flakiness) through the same orchestrator as `parley run`, its estimated cost
 * shown before it starts, then the new result beside the earlier one. The new run is stored and
 * reported like any other (it is in the runs list, and Enter opens its result).
 */
export function RerunScreen({ runId, scenarioId }: { runId: string; scenarioId: string }) {
  const read = useStoreRead((store): Earlier | undefined => {
    const run = store.getRun(runId);
    const result = run === undefined ? undefined : store.getScenarioResults(run.id).find((candidate) => candidate.scenario_id === scenarioId);
    if (run === undefined || result === undefined) return undefined;
    const attempts = store.getScenarioAttempts(run.id, scenarioId).map((attempt) => ({ status: attempt.result.status }));
    return { run, result: { ...withholdScenarioContent(result), ...(attempts.length > 1 ? { attempts } : {}) } };
  }, [runId, scenarioId]);
  const earlier = read.kind === 'read' ? read.value : undefined;
  if (earlier === undefined) {
    const message =
      read.kind === 'failed' ? `Cannot read the run history: ${read.message}` : `No result of scenario ${scenarioId} in run ${runId}.`;
    return (
      <ScreenFrame title={`Re-run ${scenarioId}`} status={`from run ${runId}`} keys={[]}>
        <WrappedText text={message} />
      </ScreenFrame>
    );
  }
  return <RerunView earlier={earlier} scenarioId={scenarioId} />;
}

function RerunView({ earlier, scenarioId }: { earlier: Earlier; scenarioId: string }) {
  const services = useServices();
  const navigation = useNavigation();
  const theme = useTheme();
  const { columns } = useTerminalSize();
  const bodyRows = useBodyRows();
  const { run, result } = earlier;
  const session = rerunSessionFor(services, run.id, scenarioId);
  useSyncExternalStore(session.subscribe, () => session.version);
  // Leaving the screen (q, Ctrl-C) stops a re-run still going: nothing spends behind the user's back.
  useEffect(() => () => session.stop(), [session]);

  const located = useMemo((): { location: TriageLocation } | { problem: string } => {
    if (scenarioId.includes('@')) return { problem: 'a case of a comparison run (scenario@agent) is re-run with parley run --agent' };
    try {
      return { location: locateTriage(run, scenarioId, services) };
    } catch (error) {
      return { problem: `cannot read the suite of run ${run.id}: ${messageOf(error)}` };
    }
  }, [run, scenarioId, services]);
  const modes = 'location' in located ? rerunModes(located.location, scenarioId) : [];
  const [mode, setMode] = useState<RerunMode>(() => (run.mode === 'replay' && modes.includes('replay') ? 'replay' : 'live'));
  const [repeat, setRepeat] = useState(1);
  const [offset, setOffset] = useState(0);
  const previousAttempts = storedRepeat(run);
  const estimate = estimateRerunCost(result, previousAttempts, { mode, repeat });
  const state = session.state;

  const before: ResultSide = { runId: run.id, how: describeHow(run.mode, previousAttempts), result };
  const comparison =
    state.kind === 'finished' && state.result !== undefined
      ? beforeAfterLines(before, { runId: state.outcome.run_id, how: describeHow(state.choice.mode, state.choice.repeat), result: withholdResult(state.result) }, columns, theme)
      : [];
  const tableRows = Math.max(1, bodyRows - 2);
  const shownOffset = Math.min(offset, maxOffset(comparison.length, tableRows));

  useKeys((input, key) => {
    if (state.kind === 'idle') {
      if ('problem' in located) return;
      if (key.return) {
        session.start(rerunOptions(run, scenarioId, located.location, { mode, repeat }, services.storePath), { mode, repeat });
        setOffset(0);
      } else if (input === 'm' && modes.length > 1) setMode(mode === 'replay' ? 'live' : 'replay');
      else if (input === '+' || input === '=' || key.rightArrow) setRepeat(Math.min(MAX_RERUN_REPEAT, repeat + 1));
      else if (input === '-' || key.leftArrow) setRepeat(Math.max(1, repeat - 1));
      else if (/^[1-9]$/.test(input)) setRepeat(Number(input));
    } else if (state.kind === 'running') {
      if (key.escape) session.stop();
    } else {
      if (input === 'R') session.reset();
      else if (key.return && state.kind === 'finished' && state.result !== undefined) {
        navigation.push({ screen: 'scenario', runId: state.outcome.run_id, scenarioId: state.result.scenario_id });
      } else if (key.downArrow || input === 'j') setOffset(Math.min(maxOffset(comparison.length, tableRows), shownOffset + 1));
      else if (key.upArrow || input === 'k') setOffset(Math.max(0, shownOffset - 1));
    }
  });

  let keys: KeyHint[] = [];
  let body;
  if ('problem' in located) {
    body = <WrappedText text={`Cannot re-run ${scenarioId}: ${located.problem}.`} />;
  } else if (state.kind === 'idle') {
    keys = [['Enter', 'start'], ...(modes.length > 1 ? [['m', 'mode'] as KeyHint] : []), ['+ -', 'attempts']];
    const costText = estimate.usd === null ? 'unknown' : formatUsd(estimate.usd);
    body = (
      <Box flexDirection="column">
        <BeforeLines before={before} width={columns} />
        <Text> </Text>
        <Text wrap="truncate-end">
          <Text bold>{'mode       '}</Text>
          {(['replay', 'live'] as const).map((candidate) => (
            <Text key={candidate} inverse={candidate === mode} bold={candidate === mode} dimColor={!modes.includes(candidate)}>
              {candidate === mode ? `[${candidate}]` : ` ${candidate} `}
            </Text>
          ))}
          <Text dimColor>{modes.length > 1 ? '  m switches' : '  (no recording of it: live only)'}</Text>
        </Text>
        <Text wrap="truncate-end">
          <Text bold>{'attempts   '}</Text>
          {String(repeat)}
          <Text dimColor>{'  + - or 1–9; 3 or more tell a flaky scenario from a broken one'}</Text>
        </Text>
        <Text wrap="truncate-end">
          <Text bold>{'est. cost  '}</Text>
          <Text bold color={theme.paint('yellow')}>
            {costText}
          </Text>
          <Text dimColor>{`  ${estimate.basis}`}</Text>
        </Text>
        <Text> </Text>
        <WrappedText text={`Start the re-run? Enter runs ${scenarioId} ${mode === 'live' ? `live against the models (estimated ${costText})` : 'from its recording'}${repeat > 1 ? ` ${repeat} times` : ''}; it is stored as a new run. Esc goes back.`} />
      </Box>
    );
  } else if (state.kind === 'running') {
    keys = [['Esc', state.stopping ? 'stopping…' : 'stop']];
    const attempt = state.choice.repeat > 1 ? ` · attempt ${Math.min(state.choice.repeat, state.attemptsDone + 1)} of ${state.choice.repeat}` : '';
    const spent = state.spentUsd === null ? 'cost unknown' : `${formatUsd(state.spentUsd)} spent`;
    body = (
      <Box flexDirection="column">
        <BeforeLines before={before} width={columns} />
        <Text> </Text>
        <Text wrap="truncate-end" bold>
          {`▸ re-running ${scenarioId} · ${state.choice.mode}${attempt} · turn ${state.turn} · ${spent}`}
        </Text>
        <Text dimColor wrap="truncate-end">
          {state.runId ? `new run ${state.runId}` : 'loading the suite…'}
        </Text>
        {state.stopping ? (
          <Text bold color={theme.paint('yellow')} wrap="truncate-end">
            Stopping: the new run is kept as interrupted.
          </Text>
        ) : null}
      </Box>
    );
  } else if (state.kind === 'failed') {
    keys = [['R', 're-run again']];
    body = (
      <Box flexDirection="column">
        <Text bold color={theme.status('error')}>
          The re-run did not run:
        </Text>
        <WrappedText text={state.message} />
      </Box>
    );
  } else if (state.result === undefined) {
    keys = [['R', 're-run again']];
    body = <WrappedText text={`The re-run was stopped before ${scenarioId} finished; run ${state.outcome.run_id} is stored as interrupted.`} />;
  } else {
    keys = [['Enter', 'open new result'], ['R', 're-run again'], ...(comparison.length > tableRows ? [['↑↓', 'scroll'] as KeyHint] : [])];
    const after = state.result;
    const estimated = estimateRerunCost(result, previousAttempts, state.choice).usd;
    body = (
      <Box flexDirection="column">
        <Text wrap="truncate-end">
          <Text bold>{`Re-run: `}</Text>
          <Text bold color={theme.status(after.status)}>{`${STATUS_MARKS[after.status]} ${after.status}`}</Text>
          {` (was ${result.status}) · spent ${formatUsd(after.cost.usd ?? 0)}${after.cost.usd === null ? '+' : ''}, estimated ${estimated === null ? 'unknown' : formatUsd(estimated)}`}
        </Text>
        <Text> </Text>
        <StyledLines lines={comparison} offset={shownOffset} rows={tableRows} />
      </Box>
    );
  }

  return (
    <ScreenFrame
      title={`Re-run ${scenarioId}`}
      status={`from run ${run.id}`}
      keys={keys}
      moreKeys={state.kind === 'idle' && !('problem' in located) ? [['1–9 → ←', 'that many attempts; one more or fewer']] : []}
      escapeTaken={state.kind === 'running'}
    >
      {body}
    </ScreenFrame>
  );
}

/** The earlier result in two to four lines: status, run, mode and cost, then its reason. */
function BeforeLines({ before, width }: { before: ResultSide; width: number }) {
  const theme = useTheme();
  const { result } = before;
  const reason = wrapText(result.reason, width - 2).slice(0, REASON_LINES);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{'before     '}</Text>
        <Text bold color={theme.status(result.status)}>{`${STATUS_MARKS[result.status]} ${result.status}`}</Text>
        {` · run ${before.runId} · ${before.how} · ${formatUsd(result.cost.usd ?? 0)}${result.cost.usd === null ? '+' : ''}`}
      </Text>
      {reason.map((line, index) => (
        <Text key={index} dimColor wrap="truncate-end">{`  ${line}`}</Text>
      ))}
    </Box>
  );
}

function WrappedText({ text }: { text: string }) {
  const { columns } = useTerminalSize();
  return (
    <Box flexDirection="column">
      {wrapText(text, columns).map((line, index) => (
        <Text key={index} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}

function describeHow(mode: string, attempts: number): string {
  return attempts > 1 ? `${mode} · ${attempts} attempts` : mode;
}

/** The re-run's result as the report gives it, with a metadata_only scenario's content withheld. */
function withholdResult(result: ResultSide['result']): ResultSide['result'] {
  const attempts = result.attempts?.map((attempt) => ({ status: attempt.status }));
  return { ...withholdScenarioContent(result), ...(attempts ? { attempts } : {}) };
}
