import { Text } from 'ink';
import { ListRow } from '../components/list-row.js';
import { OVERALL, reportAgreement, type ComparisonId, type StoredReport } from '@parley/calibration';
import type { Theme } from '../theme.js';
import { biasCell, changeCell, fit, intervalCell, measureCell, TABLE_COLUMNS, tableHeader } from './kappa-cells.js';

/**
 * The selected comparison of the report per axis and overall: quadratic kappa with its 95 %
 * bootstrap interval, exact agreement, bias (first − second), the change of kappa since the
 * previous report, the human-vs-human kappa of the axis (the ceiling: how far people agree with
 * each other), and for judge vs human the gate's verdict. The selected axis carries the cursor.
 */
export function ComparisonTable({
  report,
  previous,
  comparison,
  label,
  selected,
  theme,
}: {
  report: StoredReport;
  previous: StoredReport | undefined;
  comparison: ComparisonId;
  label: string;
  selected: string;
  theme: Theme;
}) {
  const rows = [...report.gate.axes.map((axis) => axis.axis), OVERALL];
  return (
    <>
      <Text bold>{tableHeader(label)}</Text>
      {rows.map((axis) => {
        const row = reportAgreement(report, comparison, axis);
        const before = previous ? reportAgreement(previous, comparison, axis) : undefined;
        const ceiling = reportAgreement(report, 'human_vs_human', axis);
        const gate = comparison === 'judge_vs_human' ? report.gate.axes.find((entry) => entry.axis === axis) : undefined;
        const isSelected = axis === selected;
        const mark = gate === undefined ? '—' : gate.passed ? 'pass' : 'FAIL';
        return (
          <ListRow key={axis} selected={isSelected}>
            {fit(axis, TABLE_COLUMNS.axis)} {measureCell(row?.kappa.quadratic)} {intervalCell(row?.bootstrap_interval?.quadratic)}{' '}
            {measureCell(row?.exact_agreement, TABLE_COLUMNS.exact)} {biasCell(row?.bias)} {changeCell(row?.kappa.quadratic, before?.kappa.quadratic)}{' '}
            {measureCell(ceiling?.kappa.quadratic, TABLE_COLUMNS.ceiling)}{' '}
            <Text bold={gate !== undefined && !gate.passed} color={gate === undefined ? undefined : theme.status(gate.passed ? 'pass' : 'fail')}>
              {fit(mark, TABLE_COLUMNS.gate)}
            </Text>
          </ListRow>
        );
      })}
    </>
  );
}

/** One line per failing axis: why it failed, as the report says. */
export function gateProblems(report: StoredReport): string[] {
  return report.gate.axes.flatMap((axis) => axis.problems.map((problem) => `✗ ${axis.axis}: ${problem}`));
}
