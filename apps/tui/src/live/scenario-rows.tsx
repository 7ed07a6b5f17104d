import { Text } from 'ink';
import type { ScenarioResult } from '@parley/core';
import { floorRedactor } from '@parley/redaction';
import { withheldScenarioReason } from '@parley/reports';
import { useTheme } from '../theme.js';
import { fitCaseId } from '../triage/styled-lines.js';
import { STATUS_MARKS } from './live-format.js';
import type { ScenarioProgress } from './live-run-progress.js';

/**
 * The one-line reason of a result: a metadata_only scenario's names at most the metric (docs/privacy.md);
 * others pass the floor redactor, since events carry the run's raw text (the report's results,
 * shown once the run is over, went through the suite's redactor already; redacting twice is a no-op).
 */
function reasonOf(result: ScenarioResult): string {
  return result.metadata_only ? withheldScenarioReason(result) : floorRedactor().text(result.reason);
}


/** One scenario of the list: mark, id, where it is (or its status and reason). `ended`: the run is over. */
export function ScenarioRow({ row, idWidth, ended }: { row: ScenarioProgress; idWidth: number; ended: boolean }) {
  const theme = useTheme();
  const id = fitCaseId(row.id, idWidth);
  switch (row.state) {
    case 'finished': {
      const { result } = row;
      const colour = theme.status(result.status);
      return (
        <Text wrap="truncate-end">
          <Text color={colour}>{STATUS_MARKS[result.status]}</Text> {id} <Text color={colour}>{result.status.padEnd(7)}</Text>{' '}
          <Text dimColor>{reasonOf(result)}</Text>
        </Text>
      );
    }
    case 'running':
      return ended ? (
        <Text wrap="truncate-end" dimColor>
          × {id} stopped by Ctrl-C (not a finished result)
        </Text>
      ) : (
        <Text wrap="truncate-end">
          <Text color={theme.paint('cyan')}>▸</Text> {id} <Text color={theme.paint('cyan')}>running</Text>
          {row.turn > 0 ? ` · turn ${row.turn}` : ''}
        </Text>
      );
    case 'waiting':
      return (
        <Text wrap="truncate-end" dimColor>
          {ended ? ' ' : '·'} {id} {ended ? 'not started' : 'waiting'}
        </Text>
      );
  }
}

/** One failed or errored scenario, as it happened: id, status (and advisory), first reason. */
export function FailureRow({ result, idWidth }: { result: ScenarioResult; idWidth: number }) {
  const theme = useTheme();
  const colour = theme.status(result.status);
  const label = result.gate === 'advisory' ? `${result.status}, advisory` : result.status;
  return (
    <Text wrap="truncate-end">
      <Text color={colour}>{STATUS_MARKS[result.status]}</Text> {fitCaseId(result.scenario_id, idWidth)} <Text color={colour}>{label}</Text>{' '}
      <Text dimColor>{reasonOf(result)}</Text>
    </Text>
  );
}
