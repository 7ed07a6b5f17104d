import { useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import { calibrationFolder, COMPARISONS, OVERALL, readReportHistory, reportAgreement, reportTrend } from '@parley/calibration';
import type { KeyHint } from '../components/footer.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { ConfusionMatrixView } from '../kappa/confusion-matrix-view.js';
import { GateTable, gateProblems } from '../kappa/gate-table.js';
import { fit } from '../kappa/kappa-cells.js';
import { KappaTrendView } from '../kappa/kappa-trend-view.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { useServices } from '../tui-context.js';
import { useKeys } from '../components/keyboard.js';

const KEYS: readonly KeyHint[] = [
  ['←→/Tab', 'axis'],
  ['c', 'comparison'],
];

/** Width of the confusion matrix column; the trend takes the rest. */
const MATRIX_WIDTH = 31;
/** Rows the matrix block takes (axis, raters, header, five ratings, pair count). */
const MATRIX_ROWS = 9;

/**
 * `parley tui kappa`: the latest calibration report of `reports/` (written by `parley calibrate
 * report`) as the gate table per axis, the confusion matrix of one axis, and the gate kappa's
 * trend over every report in the folder.
 */
export function KappaScreen(_props: Record<string, unknown>) {
  const { calibrationDir, cwd } = useServices();
  const theme = useTheme();
  const { columns } = useTerminalSize();
  const bodyRows = useBodyRows();
  const folder = useMemo(() => calibrationFolder(calibrationDir, cwd), [calibrationDir, cwd]);
  const history = useMemo(() => readReportHistory(folder.reportsDir), [folder]);
  const latest = history.reports.at(-1);
  const trend = useMemo(() => reportTrend(history.reports), [history]);
  const axes = latest ? [...latest.report.gate.axes.map((axis) => axis.axis), OVERALL] : [];
  const [axisIndex, setAxisIndex] = useState(0);
  const [comparisonIndex, setComparisonIndex] = useState(0);

  useKeys((input, key) => {
    if (axes.length === 0) return;
    if (key.rightArrow || (key.tab && !key.shift)) setAxisIndex((index) => (index + 1) % axes.length);
    else if (key.leftArrow || (key.tab && key.shift)) setAxisIndex((index) => (index - 1 + axes.length) % axes.length);
    else if (input === 'c') setComparisonIndex((index) => (index + 1) % COMPARISONS.length);
  });

  const fileProblems = history.problems.map((problem) => `skipped ${problem.file.slice(folder.reportsDir.length + 1) || problem.file}: ${problem.message}`);

  if (latest === undefined) {
    return (
      <ScreenFrame title="Kappa" status={folder.shown} keys={[]}>
        <Text>{`No calibration report in ${folder.shown}/reports yet.`}</Text>
        <Text>
          Make one with: <Text bold>{`parley calibrate report --dir ${folder.shown}`}</Text>
        </Text>
        {fileProblems.map((line) => (
          <Text key={line} color={theme.paint('yellow')} wrap="truncate-end">
            {line}
          </Text>
        ))}
      </ScreenFrame>
    );
  }

  const { report } = latest;
  const axis = axes[axisIndex % axes.length] ?? OVERALL;
  const comparison = COMPARISONS[comparisonIndex] ?? COMPARISONS[0]!;
  const [rowsRater = 'first', columnsRater = 'second'] = comparison.label.split(' vs ');
  // Gate line, table header, axes + overall, then the matrix block: what is left is for problems.
  const fixedRows = 2 + axes.length + 1 + MATRIX_ROWS;
  const notes = [...gateProblems(report), ...fileProblems].slice(0, Math.max(0, bodyRows - fixedRows));
  const judge = report.session.judge ? `${report.session.judge.provider}:${report.session.judge.model}` : 'no judge';
  return (
    <ScreenFrame title="Kappa" status={`${latest.date} · ${report.session.mode} · ${report.set.rated_items}/${report.set.items} rated`} keys={KEYS}>
      <Text wrap="truncate-end">
        <Text bold inverse={!report.gate.passed} color={theme.status(report.gate.passed ? 'pass' : 'fail')}>
          {report.gate.passed ? ' Gate: PASS ' : ' Gate: FAIL '}
        </Text>
        {` quadratic κ ≥ ${report.gate.min_kappa}, |bias| ≤ ${report.gate.max_bias} · ${judge}`}
      </Text>
      <GateTable report={report} selected={axis} theme={theme} />
      {notes.map((line) => (
        <Text key={line} color={theme.paint('yellow')} wrap="truncate-end">
          {line}
        </Text>
      ))}
      <Text> </Text>
      <Box>
        <Box flexDirection="column" width={MATRIX_WIDTH}>
          <Text bold>{fit(axis, MATRIX_WIDTH - 1)}</Text>
          <Text dimColor>{fit(`${rowsRater} ↓ × ${columnsRater} →`, MATRIX_WIDTH - 1)}</Text>
          <ConfusionMatrixView row={reportAgreement(report, comparison.id, axis)} rowsLabel={rowsRater} columnsLabel={columnsRater} />
        </Box>
        <KappaTrendView trend={trend} axes={report.gate.axes.map((entry) => entry.axis)} width={columns - MATRIX_WIDTH} theme={theme} />
      </Box>
    </ScreenFrame>
  );
}
