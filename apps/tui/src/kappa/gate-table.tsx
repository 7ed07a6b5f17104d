import { Text } from 'ink';
import { OVERALL, reportAgreement, type StoredReport } from '@parley/calibration';
import type { Theme } from '../theme.js';
import { biasCell, fit, GATE_COLUMNS, gateHeader, measureCell } from './kappa-cells.js';

/**
 * The report's gate per axis (judge vs human, SPEC §6): quadratic kappa against the minimum, bias
 * against the maximum, marked pass or FAIL as the report decided; the pooled `overall` row is
 * shown but not gated. The selected axis (whose matrix is shown) carries the cursor.
 */
export function GateTable({ report, selected, theme }: { report: StoredReport; selected: string; theme: Theme }) {
  const rows = [...report.gate.axes.map((axis) => axis.axis), OVERALL];
  return (
    <>
      <Text bold>{gateHeader()}</Text>
      {rows.map((axis) => {
        const gate = report.gate.axes.find((entry) => entry.axis === axis);
        const row = reportAgreement(report, 'judge_vs_human', axis);
        const isSelected = axis === selected;
        const mark = gate === undefined ? '—' : gate.passed ? 'pass' : 'FAIL';
        return (
          <Text key={axis} inverse={isSelected} wrap="truncate-end">
            {isSelected ? '› ' : '  '}
            {fit(axis, GATE_COLUMNS.axis)} {measureCell(gate?.kappa_quadratic ?? row?.kappa.quadratic)} {measureCell(row?.kappa.linear)}{' '}
            {measureCell(row?.exact_agreement, GATE_COLUMNS.exact)} {biasCell(gate?.bias ?? row?.bias)}{' '}
            <Text bold={gate !== undefined && !gate.passed} color={gate === undefined ? undefined : theme.status(gate.passed ? 'pass' : 'fail')}>
              {fit(mark, GATE_COLUMNS.gate)}
            </Text>{' '}
            {fit(row?.band ?? '—', GATE_COLUMNS.band)}
          </Text>
        );
      })}
    </>
  );
}

/** One line per failing axis: why it failed, as the report says. */
export function gateProblems(report: StoredReport): string[] {
  return report.gate.axes.flatMap((axis) => axis.problems.map((problem) => `✗ ${axis.axis}: ${problem}`));
}
