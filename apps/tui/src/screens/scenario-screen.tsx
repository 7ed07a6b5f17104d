import { useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import type { ScenarioResult } from '@parley/core';
import { messageJudgements, withholdScenarioContent } from '@parley/reports';
import type { KeyHint } from '../components/footer.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { chatLines } from '../triage/chat-lines.js';
import { metricTableLines } from '../triage/metric-table-lines.js';
import { maxOffset, StyledLines, type StyledLine } from '../triage/styled-lines.js';
import { useScenarioActions } from '../triage/use-scenario-actions.js';
import { useStoreRead } from '../triage/use-store-read.js';
import { useKeys } from '../components/keyboard.js';
import { useNavigation } from '../navigation.js';

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
  const lines = useMemo((): StyledLine[] => {
    if (section === 'metrics') return metricTableLines(shown, columns, theme);
    if (hidden) {
      return [
        [{ text: 'This scenario is metadata_only: its conversation is not shown.', bold: true }],
        [{ text: 'Press r to reveal it on this screen (nothing is written or exported).', dim: true }],
      ];
    }
    if (shown.transcript === undefined) return [[{ text: 'No transcript was stored for this scenario.', dim: true }]];
    return chatLines(shown.transcript, messageJudgements(shown.metrics), columns, theme);
  }, [section, shown, hidden, columns, theme]);

  const statusRows = (actions.message ? 1 : 0) + (confirming ? 1 : 0);
  const windowRows = Math.max(1, bodyRows - HEADER_ROWS - statusRows);
  const offset = Math.min(offsets[section], maxOffset(lines.length, windowRows));
  const scrollTo = (next: number) => setOffsets((current) => ({ ...current, [section]: Math.max(0, Math.min(next, maxOffset(lines.length, windowRows))) }));

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
    },
    { isActive: !actions.capturesInput && actions.panel === undefined },
  );

  const keys: KeyHint[] = [
    ['t', 'transcript'],
    ['m', 'metrics'],
    ['↑↓', 'scroll'],
    ...(hidden ? ([['r', 'reveal']] as const) : []),
    ...actions.keys,
    ...(actions.capturesInput ? [] : ([['R', 're-run']] as const)),
  ];
  const position = lines.length > windowRows ? ` ${offset + 1}-${Math.min(lines.length, offset + windowRows)}/${lines.length}` : '';
  return (
    <ScreenFrame title={`Scenario ${result.scenario_id}`} status={`run ${runId}`} keys={keys} backKeys={!actions.capturesInput && !confirming}>
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
            <Text dimColor>{position}</Text>
          </Text>
          {confirming ? (
            <Text bold color={theme.paint('yellow')} wrap="truncate-end">
              Reveal this metadata_only conversation here? y reveals, any other key cancels
            </Text>
          ) : null}
          {actions.message ? <Text wrap="truncate-end">{actions.message}</Text> : null}
          <StyledLines lines={lines} offset={offset} rows={windowRows} />
        </Box>
      )}
    </ScreenFrame>
  );
}
