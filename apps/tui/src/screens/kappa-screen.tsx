import { useEffect, useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import {
  agreementPerReviewer,
  calibrationFolder,
  COMPARISONS,
  confusionMatrix,
  labelledPairs,
  OVERALL,
  pairsInCell,
  readReportHistory,
  reportAgreement,
  reportTrend,
  type LabelledPair,
} from '@parley/calibration';
import type { KeyHint } from '../components/footer.js';
import { useKeys } from '../components/keyboard.js';
import { matchesQuery } from '../components/filter-query.js';
import { useFilter } from '../components/use-filter.js';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { ComparisonTable, gateProblems } from '../kappa/comparison-table.js';
import { ConfusionMatrixView, startCell, type MatrixCell } from '../kappa/confusion-matrix-view.js';
import { fit } from '../kappa/kappa-cells.js';
import { KappaTrendView } from '../kappa/kappa-trend-view.js';
import { readPairSource } from '../kappa/read-pair-source.js';
import { ReviewerAgreementView } from '../kappa/reviewer-agreement-view.js';
import { useNavigation } from '../navigation.js';
import { useTerminalSize } from '../terminal-size.js';
import { wrapText } from '../rate/wrap-text.js';
import { useTheme } from '../theme.js';
import { parleyOf, useServices } from '../tui-context.js';

const KEYS: readonly KeyHint[] = [
  ['Tab', 'axis'],
  ['c', 'comparison'],
  ['←→↑↓', 'cell'],
  ['Enter', 'items in cell'],
];

const MORE_KEYS: readonly KeyHint[] = [
  ['Shift-Tab', 'previous axis'],
  ['h j k l', 'move in the matrix like ← ↓ ↑ →'],
  ['κ quad', 'quadratic-weighted kappa (the gate); 95 % CI: its bootstrap interval over items'],
  ['exact bias', 'share of pairs that agree exactly; mean first − second, in rating points'],
  ['Δ prev', 'change of κ quad since the previous report in reports/'],
  ['ceil', 'human vs human κ quad of the axis: how far people agree with each other'],
  ['per reviewer', 'the first rater against each reviewer (human vs human: the others); bias = first − reviewer'],
  ['PgUp PgDn', 'page through per reviewer (the set as read, not the report)'],
];

/** What each calibration folder's kappa screen showed last, for the life of the process. */
const views = new Map<string, { axisIndex: number; comparisonIndex: number; cell?: MatrixCell }>();

/** Width of the confusion matrix column; the right side takes the rest. */
const MATRIX_WIDTH = 31;
/** Rows the matrix block takes (axis, raters, header, five ratings, pair count). */
const MATRIX_ROWS = 9;

/**
 * `parley tui kappa`: the latest calibration report of `reports/` (written by `parley calibrate
 * report`) as the table of the selected comparison per axis (kappa with its 95 % interval, the
 * change since the previous report, the human ceiling and the gate), the confusion matrix of one
 * axis with a cell cursor (Enter lists the items behind the cell), the agreement with each
 * reviewer, and the gate kappa's trend over every report in the folder.
 */
export function KappaScreen(_props: Record<string, unknown>) {
  const services = useServices();
  const { calibrationDir, cwd, storePath } = services;
  const navigation = useNavigation();
  const theme = useTheme();
  const { columns } = useTerminalSize();
  const bodyRows = useBodyRows();
  const folder = useMemo(() => calibrationFolder(calibrationDir, cwd), [calibrationDir, cwd]);
  const history = useMemo(() => readReportHistory(folder.reportsDir), [folder]);
  const latest = history.reports.at(-1);
  const previous = history.reports.at(-2)?.report;
  const trend = useMemo(() => reportTrend(history.reports), [history]);
  const pairSource = useMemo(() => (latest ? readPairSource(folder, storePath, latest.report) : undefined), [folder, storePath, latest]);
  const axes = latest ? [...latest.report.gate.axes.map((axis) => axis.axis), OVERALL] : [];
  // The screen is unmounted while a cell's items are shown: coming back, the same view is shown.
  const remembered = views.get(folder.dir);
  const [axisIndex, setAxisIndex] = useState(remembered?.axisIndex ?? 0);
  const [comparisonIndex, setComparisonIndex] = useState(remembered?.comparisonIndex ?? 0);
  const [chosenCell, setChosenCell] = useState<MatrixCell | undefined>(remembered?.cell);
  useEffect(() => {
    views.set(folder.dir, { axisIndex, comparisonIndex, ...(chosenCell ? { cell: chosenCell } : {}) });
  }, [folder.dir, axisIndex, comparisonIndex, chosenCell]);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [reviewerScroll, setReviewerScroll] = useState(0);
  const filter = useFilter({ rememberAs: `kappa\u0000${folder.dir}` });
  useEffect(() => setReviewerScroll(0), [filter.text]);
  // Per reviewer (and the items behind a cell) come from the set as read now, the table and the
  // matrices from the report: both say when they are from, and a set whose ratings no longer give
  // the report's matrices is pointed out.
  const readAt = useMemo(() => new Date(), [pairSource]);
  const setChanged = useMemo(() => {
    if (!latest || !pairSource || !('source' in pairSource)) return false;
    const comparisons = ['human_vs_human' as const, ...(pairSource.problem === undefined ? COMPARISONS.map((entry) => entry.id) : [])];
    return comparisons.some((id) =>
      [...latest.report.gate.axes.map((entry) => entry.axis), OVERALL].some((name) => {
        const reported = reportAgreement(latest.report, id, name)?.confusion_matrix;
        const now = confusionMatrix(labelledPairs(pairSource.source, id, name).map((labelled) => labelled.pair));
        return reported !== undefined && JSON.stringify(reported) !== JSON.stringify(now);
      }),
    );
  }, [latest, pairSource]);

  const axis = axes[axisIndex % Math.max(1, axes.length)] ?? OVERALL;
  const comparison = COMPARISONS[comparisonIndex] ?? COMPARISONS[0]!;
  const row = latest ? reportAgreement(latest.report, comparison.id, axis) : undefined;
  const cell = chosenCell ?? (row ? startCell(row.confusion_matrix) : { row: 1, column: 1 });
  const source = pairSource && 'source' in pairSource ? pairSource.source : undefined;
  const needsModels = comparison.id !== 'human_vs_human';
  const sourceProblem = pairSource?.problem !== undefined && (needsModels || !source) ? pairSource.problem : undefined;
  const pairs = useMemo((): LabelledPair[] => (source ? labelledPairs(source, comparison.id, axis) : []), [source, comparison.id, axis]);
  const everyReviewer = useMemo(() => (sourceProblem === undefined ? agreementPerReviewer(pairs) : []), [pairs, sourceProblem]);
  // `/` narrows per reviewer to the reviewers whose name has the text (a long list of reviewers).
  const perReviewer = useMemo(
    () => (filter.text === '' ? everyReviewer : everyReviewer.filter((entry) => matchesQuery({ reviewer: entry.reviewer }, filter.text))),
    [everyReviewer, filter.text],
  );

  const fileProblems = history.problems.map((problem) => `skipped ${problem.file.slice(folder.reportsDir.length + 1) || problem.file}: ${problem.message}`);
  const reportTime = latest ? new Date(latest.report.generated_at) : undefined;
  const staleNote = setChanged
    ? `the set changed since this report: table and matrices are the report's (${reportTime ? shortTime(reportTime) : latest?.date}), per reviewer the set's (${shortTime(readAt)}); \`parley calibrate report --dir ${folder.shown}\` brings them together`
    : undefined;
  // Notes wrap rather than lose their end: the command to run is usually there.
  const allNotes = latest
    ? [...(message ? [message] : []), ...(staleNote ? [staleNote] : []), ...gateProblems(latest.report), ...fileProblems].flatMap((note) => wrapText(note, columns - 1, 2))
    : [];
  // Gate line, table header, axes + overall, the selected row explained, then the matrix block
  // after a blank line: what is left is for notes, then the matrix block grows into the rest, so
  // per reviewer lists as many reviewers as the terminal has rows for.
  const fixedRows = 2 + axes.length + 1 + 1 + MATRIX_ROWS;
  const noteRows = Math.min(allNotes.length, Math.max(0, bodyRows - fixedRows));
  const blockRows = Math.max(MATRIX_ROWS, bodyRows - (fixedRows - MATRIX_ROWS) - noteRows);
  const trendRows = latest ? Math.min(MATRIX_ROWS - 2, latest.report.gate.axes.length + 2) : 0;
  const reviewerRows = blockRows - trendRows;
  // The reviewers a page shows: the rows under the source line and the header, less the "more" line.
  const reviewerPage = Math.max(1, reviewerRows - 3);

  useKeys((input, key) => {
    if (!latest || filter.editing) return;
    const move = (rows: number, columns: number) => {
      setChosenCell({ row: clamp(cell.row + rows), column: clamp(cell.column + columns) });
      setMessage(undefined);
    };
    const reset = () => {
      setChosenCell(undefined);
      setMessage(undefined);
    };
    if (key.tab && !key.shift) {
      setAxisIndex((index) => (index + 1) % axes.length);
      reset();
    } else if (key.tab && key.shift) {
      setAxisIndex((index) => (index - 1 + axes.length) % axes.length);
      reset();
    } else if (input === 'c') {
      setComparisonIndex((index) => (index + 1) % COMPARISONS.length);
      reset();
    } else if (key.pageDown) setReviewerScroll((scroll) => Math.min(Math.max(0, perReviewer.length - reviewerPage), scroll + reviewerPage));
    else if (key.pageUp) setReviewerScroll((scroll) => Math.max(0, scroll - reviewerPage));
    else if (key.leftArrow || input === 'h') move(0, -1);
    else if (key.rightArrow || input === 'l') move(0, 1);
    else if (key.upArrow || input === 'k') move(-1, 0);
    else if (key.downArrow || input === 'j') move(1, 0);
    else if (key.return) {
      if (sourceProblem !== undefined) return setMessage(`cannot list the items: ${sourceProblem}`);
      const reportCount = row?.confusion_matrix[cell.row - 1]?.[cell.column - 1] ?? 0;
      const behind = pairsInCell(pairs, cell.row, cell.column);
      if (behind.length === 0 && reportCount === 0) return setMessage('no pairs in this cell');
      navigation.push({
        screen: 'kappa-cell',
        cell: { comparison: comparison.id, label: comparison.label, axis, row: cell.row, column: cell.column, pairs: behind, reportCount, reportDate: latest.date },
      });
    }
  });

  if (latest === undefined) {
    return (
      <ScreenFrame title="Kappa" status={folder.shown} keys={[]}>
        <Text>{`No calibration report in ${folder.shown}/reports yet.`}</Text>
        <Text>
          Make one with: <Text bold>{`${parleyOf(services)} calibrate report --dir ${folder.shown}`}</Text>
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
  const [rowsRater = 'first', columnsRater = 'second'] = comparison.label.split(' vs ');
  const notes = allNotes.slice(0, Math.max(0, bodyRows - fixedRows));
  const judge = report.session.judge ? `${report.session.judge.provider}:${report.session.judge.model}` : 'no judge';
  const rightWidth = columns - MATRIX_WIDTH;
  return (
    <ScreenFrame
      title="Kappa"
      status={`report ${reportTime ? shortTime(reportTime) : latest.date} · ${report.session.mode} · ${report.set.rated_items}/${report.set.items} rated`}
      keys={
        filter.editing
          ? [
              ['Enter', 'keep filter'],
              ['Esc', 'clear'],
            ]
          : [...KEYS, ['/', 'filter reviewers'], ...(filter.text !== '' ? ([['Esc', 'clear filter']] as KeyHint[]) : [])]
      }
      moreKeys={MORE_KEYS}
      backKeys={!filter.editing}
      helpKey={!filter.editing}
      escapeTaken={filter.text !== ''}
    >
      <Text wrap="truncate-end">
        <Text bold inverse={!report.gate.passed} color={theme.status(report.gate.passed ? 'pass' : 'fail')}>
          {report.gate.passed ? ' Gate: PASS ' : ' Gate: FAIL '}
        </Text>
        {` quadratic κ ≥ ${report.gate.min_kappa}, |bias| ≤ ${report.gate.max_bias} · ${judge}`}
      </Text>
      <ComparisonTable report={report} previous={previous} comparison={comparison.id} label={comparison.label} selected={axis} theme={theme} />
      <Text dimColor wrap="truncate-end">
        {row
          ? `band ${row.band ?? 'undefined'} · κ lin ${row.kappa.linear?.toFixed(3) ?? 'undef'} · ${row.n} pairs, ${row.items} items${previous ? ` · Δ vs ${history.reports.at(-2)!.date}` : ''}`
          : `${axis}: no pairs for ${comparison.label}`}
      </Text>
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
          <ConfusionMatrixView row={row} rowsLabel={rowsRater} columnsLabel={columnsRater} cursor={cell} />
        </Box>
        <Box flexDirection="column" width={rightWidth}>
          <Box height={reviewerRows} flexDirection="column" overflow="hidden">
            <Text dimColor={!setChanged} color={setChanged ? theme.paint('yellow') : undefined} wrap="truncate-end">
              {filter.editing || filter.text !== ''
                ? `per reviewer · filter> ${filter.text}${filter.editing ? '█' : ` (${perReviewer.length} of ${everyReviewer.length})`}`
                : `per reviewer · set read ${shortTime(readAt)}`}
            </Text>
            <ReviewerAgreementView rows={perReviewer} problem={sourceProblem} width={rightWidth} maxRows={reviewerRows - 1} scroll={reviewerScroll} />
          </Box>
          <KappaTrendView trend={trend} axes={report.gate.axes.map((entry) => entry.axis)} width={rightWidth} theme={theme} />
        </Box>
      </Box>
    </ScreenFrame>
  );
}

/** `2026-11-27 10:42 UTC`: the report's and the set's times, in the zone the files write them in. */
function shortTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function clamp(rating: number): number {
  return Math.max(1, Math.min(5, rating));
}
