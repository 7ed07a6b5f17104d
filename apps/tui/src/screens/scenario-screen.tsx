import { useEffect, useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import type { ScenarioResult } from '@parley/core';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { failureMarks, messageJudgements, withholdScenarioContent } from '@parley/reports';
import type { KeyHint } from '../components/footer.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { chatLayout } from '../triage/chat-lines.js';
import { expectationText } from '../triage/expectation-text.js';
import { metricTableLines } from '../triage/metric-table-lines.js';
import { maxOffset, StyledLines, type StyledLine } from '../triage/styled-lines.js';
import { useScenarioActions } from '../triage/use-scenario-actions.js';
import { useStoreRead } from '../triage/use-store-read.js';
import { useKeys } from '../components/keyboard.js';
import { useNavigation } from '../navigation.js';
import { wrapText } from '../rate/wrap-text.js';
import { useServices } from '../tui-context.js';

type Section = 'metrics' | 'transcript';

/** Body rows above the scrolled section: status line, title, reason, section tabs. */
const HEADER_ROWS = 4;

/**
 * One scenario of a run: the metric table against the baseline (`m`) and the transcript in a chat
 * layout with every judge's score and reason under each assistant message and the tool calls in
 * place (`t`). A `metadata_only` scenario shows no content (no transcript, no reason) until the
 * user reveals it here with `r` and confirms with `y`; leaving the screen forgets the reveal.
 * The triage actions (accept, flaky, calibration, editor, diff) come from `useScenarioActions`.
 */
export function ScenarioScreen({ runId, scenarioId }: { runId: string; scenarioId: string }) {
  const read = useStoreRead((store) => store.getScenarioResults(runId).find((result) => result.scenario_id === scenarioId), [runId, scenarioId]);
  const result = read.kind === 'read' ? read.value : undefined;
  if (result === undefined) {
    const message =
      read.kind === 'failed' ? `Cannot read the run history: ${read.message}` : `No result of scenario ${scenarioId} in run ${runId}.`;
    return (
      <ScreenFrame title={`Scenario ${scenarioId}`} status={runId} keys={[]}>
        <Text>{message}</Text>
      </ScreenFrame>
    );
  }
  return <ScenarioView runId={runId} result={result} />;
}

function ScenarioView({ runId, result }: { runId: string; result: ScenarioResult }) {
  const theme = useTheme();
  const navigation = useNavigation();
  const { columns } = useTerminalSize();
  const bodyRows = useBodyRows();
  const [section, setSection] = useState<Section>('metrics');
  const [offsets, setOffsets] = useState<Record<Section, number>>({ metrics: 0, transcript: 0 });
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const actions = useScenarioActions({ runId, result, isActive: !confirming });

  const hidden = result.metadata_only && !revealed;
  const shown = useMemo(() => (hidden ? withholdScenarioContent(result) : result), [hidden, result]);
  const services = useServices();
  const { lines, anchors } = useMemo((): { lines: StyledLine[]; anchors: number[] } => {
    if (section === 'metrics') return { lines: metricTableLines(shown, columns, theme), anchors: [] };
    if (hidden) return { lines: withheldLines(result, actions.scenarioFile, services.cwd, columns), anchors: [] };
    if (shown.transcript === undefined) return { lines: [[{ text: 'No transcript was stored for this scenario.', dim: true }]], anchors: [] };
    const marks = failureMarks(shown.metrics);
    const layout = chatLayout(shown.transcript, messageJudgements(shown.metrics), marks.byMessage, columns, theme);
    if (marks.unlocated.length === 0) return layout;
    // Failures that point at no message are said first (their reasons are in the metric table).
    const note: StyledLine[] = wrapText(`✗ failed, in no single message: ${marks.unlocated.join(', ')} (m shows why)`, columns).map((line) => [
      { text: line, bold: true, colour: theme.paint('red') },
    ]);
    return { lines: [...note, [], ...layout.lines], anchors: layout.anchors.map((anchor) => anchor + note.length + 1) };
  }, [section, shown, hidden, columns, theme, result, actions.scenarioFile, services.cwd]);

  // What an action said (an error can be long) wraps, on up to three lines.
  const messageLines = actions.message ? wrapText(actions.message, columns).slice(0, 3) : [];
  const statusRows = messageLines.length + (confirming ? 1 : 0);
  const windowRows = Math.max(1, bodyRows - HEADER_ROWS - statusRows);
  const offset = Math.min(offsets[section], maxOffset(lines.length, windowRows));
  const scrollTo = (next: number) => setOffsets((current) => ({ ...current, [section]: Math.max(0, Math.min(next, maxOffset(lines.length, windowRows))) }));

  const [jumpToFirst, setJumpToFirst] = useState(false);
  useEffect(() => {
    if (!jumpToFirst || section !== 'transcript') return;
    setJumpToFirst(false);
    if (anchors[0] !== undefined) scrollTo(anchors[0]);
  });
  /** `n`/`N`: the next / previous marked message to the top of the window (from the metrics, the first). */
  const jump = (direction: 1 | -1) => {
    if (section === 'metrics') {
      setSection('transcript');
      setJumpToFirst(true);
      return;
    }
    const target = direction === 1 ? anchors.find((anchor) => anchor > offset) : anchors.findLast((anchor) => anchor < offset);
    if (target !== undefined) scrollTo(target);
  };

  useKeys(
    (input, key) => {
      if (confirming) {
        setConfirming(false);
        if (input === 'y') setRevealed(true);
        return;
      }
      if (input === 't') setSection('transcript');
      else if (input === 'm') setSection('metrics');
      else if (key.tab) setSection(section === 'metrics' ? 'transcript' : 'metrics');
      else if (input === 'r' && hidden) setConfirming(true);
      else if (input === 'R') navigation.push({ screen: 'rerun', runId, scenarioId: result.scenario_id });
      else if (key.downArrow || input === 'j') scrollTo(offset + 1);
      else if (key.upArrow || input === 'k') scrollTo(offset - 1);
      else if (key.pageDown || input === ' ') scrollTo(offset + windowRows);
      else if (key.pageUp) scrollTo(offset - windowRows);
      else if (key.home) scrollTo(0);
      else if (key.end) scrollTo(lines.length);
      else if (input === 'n' || input === 'N') jump(input === 'n' ? 1 : -1);
    },
    { isActive: !actions.capturesInput && actions.panel === undefined },
  );

  // While an action takes the keys (a note being typed, a question, the diff) the screen's own
  // keys do nothing, so the footer shows only the action's.
  const keys: KeyHint[] = actions.capturesInput
    ? [...actions.keys]
    : [
        ['t', 'transcript'],
        ['m', 'metrics'],
        ['↑↓', 'scroll'],
        ...(section === 'transcript' && anchors.length > 0 ? ([['n N', 'next/prev failure']] as const) : []),
        ...(hidden ? ([['r', 'reveal']] as const) : []),
        ...actions.keys,
        ['R', 're-run'],
      ];
  const position = lines.length > windowRows ? ` ${offset + 1}-${Math.min(lines.length, offset + windowRows)}/${lines.length}` : '';
  const failuresShown = anchors.filter((anchor) => anchor >= offset && anchor < offset + windowRows).length;
  const failureCount = section === 'transcript' && anchors.length > 0 ? ` · ${anchors.length} marked${failuresShown > 0 ? ` (${failuresShown} in view)` : ''}` : '';
  return (
    <ScreenFrame
      title={`Scenario ${result.scenario_id}`}
      status={`run ${runId}`}
      keys={keys}
      moreKeys={[
        ...(keys.some(([key]) => key === 'n N') ? [] : ([['n N', 'the next / previous message a failure points at (opens the transcript)']] as const)),
        ['Tab', 'metric table / transcript'],
        ['PgUp PgDn Home End', 'scroll a page, to the top or the end'],
      ]}
      backKeys={!actions.capturesInput && !confirming}
    >
      {actions.panel ?? (
        <Box flexDirection="column">
          <Text wrap="truncate-end">
            <Text bold color={theme.status(result.status)}>
              {result.status}
            </Text>
            {` · ${result.gate} · agent ${result.agent}${result.language ? ` · ${result.language}` : ''}${result.metadata_only ? ` · metadata_only${revealed ? ' (revealed)' : ''}` : ''}`}
          </Text>
          <Text wrap="truncate-end">{result.title ?? result.scenario_id}</Text>
          <Text wrap="truncate-end" dimColor={result.status === 'pass'}>
            {shown.reason}
          </Text>
          <Text wrap="truncate-end">
            <Text bold={section === 'metrics'} inverse={section === 'metrics'}>
              {` Metrics (${result.metrics.length}) `}
            </Text>{' '}
            <Text bold={section === 'transcript'} inverse={section === 'transcript'}>
              {` Transcript${shown.transcript ? ` (${shown.transcript.turns.length})` : ''} `}
            </Text>
            <Text dimColor>
              {position}
              {failureCount}
            </Text>
          </Text>
          {confirming ? (
            <Text bold color={theme.paint('yellow')} wrap="truncate-end">
              Reveal this metadata_only conversation here? y reveals, any other key cancels
            </Text>
          ) : null}
          {messageLines.map((line, index) => (
            <Text key={`message-${index}`} wrap="truncate-end">
              {line}
            </Text>
          ))}
          <StyledLines lines={lines} offset={offset} rows={windowRows} />
        </Box>
      )}
    </ScreenFrame>
  );
}

/**
 * The transcript section of a `metadata_only` scenario before a reveal: no conversation, but the
 * expectations as its file writes them, so triage can start from what was checked.
 */
function withheldLines(result: ScenarioResult, scenarioFile: string | undefined, cwd: string, width: number): StyledLine[] {
  const lines: StyledLine[] = [
    [{ text: 'This scenario is metadata_only: its conversation is not shown.', bold: true }],
    [{ text: 'Press r to reveal it on this screen (nothing is written or exported).', dim: true }],
    [],
  ];
  let expectations: string[] | undefined;
  try {
    expectations = scenarioFile === undefined ? undefined : expectationText(readFileSync(scenarioFile, 'utf8'));
  } catch {
    expectations = undefined;
  }
  if (scenarioFile === undefined || expectations === undefined) {
    lines.push([{ text: `The file of ${result.scenario_id} was not found, so its expectations cannot be shown.`, dim: true }]);
    return lines;
  }
  lines.push([{ text: `What it expects (${relative(cwd, scenarioFile) || scenarioFile}):`, bold: true }]);
  for (const line of expectations) {
    // YAML's indentation is kept: wrapping would drop it.
    const indent = `  ${/^\s*/.exec(line)?.[0] ?? ''}`;
    for (const part of wrapText(line.trimStart(), Math.max(10, width - indent.length))) lines.push([{ text: `${indent}${part}` }]);
  }
  return lines;
}
