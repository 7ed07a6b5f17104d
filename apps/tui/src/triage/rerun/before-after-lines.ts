import { terminalSafe, type ScenarioResult } from '@parley/core';
import { formatScore } from '@parley/gate';
import { formatUsd, STATUS_MARKS } from '../../live/live-format.js';
import { wrapText } from '../../rate/wrap-text.js';
import type { Theme } from '../../theme.js';
import { fit, type Segment, type StyledLine } from '../styled-lines.js';

/** One side of the comparison: a result and the run it belongs to. */
export interface ResultSide {
  runId: string;
  /** `live · 3 attempts`, `replay`. */
  how: string;
  /** Under `--repeat`, the attempts as the report lists them. */
  result: ScenarioResult & { attempts?: ReadonlyArray<{ status: ScenarioResult['status'] }> };
}

const LABEL_WIDTH = 17;
const GAP = 2;
/** Lines of a reason shown per side before it is cut with `…`. */
const REASON_LINES = 4;

/**
 * The earlier result and the re-run's result side by side, so a triager sees at once whether the
 * failure came back: run, status, cost, reason, attempts (under `--repeat`), then each metric's
 * verdict and score. `metadata_only` results must come without their content (withholdScenarioContent).
 */
export function beforeAfterLines(before: ResultSide, after: ResultSide, width: number, theme: Theme): StyledLine[] {
  const side = Math.max(10, Math.floor((width - LABEL_WIDTH - GAP) / 2));
  const row = (label: string, left: Segment[], right: Segment[], bold = false): StyledLine => [
    { text: `${fit(label, LABEL_WIDTH - 1)} `, bold: true },
    ...cell(left, side),
    { text: ' '.repeat(GAP) },
    ...cell(right, side),
  ].map((segment) => (bold ? { ...segment, bold: true } : segment));
  const status = (result: ScenarioResult): Segment[] => [
    { text: `${STATUS_MARKS[result.status]} ${result.status === 'fail' || result.status === 'error' ? result.status.toUpperCase() : result.status}`, bold: true, colour: theme.status(result.status) },
  ];

  const lines: StyledLine[] = [
    row('', [{ text: 'before' }], [{ text: 'after (re-run)' }], true),
    row('run', [{ text: before.runId }], [{ text: after.runId }]),
    row('mode', [{ text: before.how }], [{ text: after.how }]),
    row('status', status(before.result), status(after.result)),
    row('cost', [{ text: usd(before.result.cost.usd) }], [{ text: usd(after.result.cost.usd) }]),
  ];
  const attempts = (result: ResultSide['result']) => (attemptsOf(result) ?? []).map((attempt) => STATUS_MARKS[attempt.status]).join(' ');
  if (attemptsOf(before.result) || attemptsOf(after.result)) lines.push(row('attempts', [{ text: attempts(before.result) }], [{ text: attempts(after.result) }]));

  const leftReason = cutLines(wrapText(terminalSafe(before.result.reason), side), REASON_LINES, side);
  const rightReason = cutLines(wrapText(terminalSafe(after.result.reason), side), REASON_LINES, side);
  for (let index = 0; index < Math.max(leftReason.length, rightReason.length); index += 1) {
    lines.push(row(index === 0 ? 'reason' : '', [{ text: leftReason[index] ?? '', dim: true }], [{ text: rightReason[index] ?? '', dim: true }]));
  }

  const metricCount = Math.max(before.result.metrics.length, after.result.metrics.length);
  if (metricCount > 0) lines.push(row('metric', [{ text: 'verdict  score' }], [{ text: 'verdict  score' }], true));
  // Metrics pair up by position (the same expectations, in order); any that failed on either side first.
  const failedSomewhere = (index: number) => before.result.metrics[index]?.passed === false || after.result.metrics[index]?.passed === false;
  const order = Array.from({ length: metricCount }, (_, index) => index).sort((left, right) => Number(failedSomewhere(right)) - Number(failedSomewhere(left)));
  for (const index of order) {
    const left = before.result.metrics[index];
    const right = after.result.metrics[index];
    const name = left?.metric ?? right?.metric ?? '';
    const changed = left !== undefined && right !== undefined && left.passed !== right.passed;
    lines.push(row(name, metricCell(left, theme), [...metricCell(right, theme), ...(changed ? [{ text: '  changed', bold: true }] : [])]));
  }
  return lines;
}

function usd(value: number | null): string {
  return value === null ? 'unknown' : formatUsd(value);
}

function metricCell(metric: ScenarioResult['metrics'][number] | undefined, theme: Theme): Segment[] {
  if (metric === undefined) return [{ text: '-', dim: true }];
  const verdict = metric.passed ? 'PASS' : 'FAIL';
  const score = metric.score === null ? '-' : formatScore(metric.score);
  return [{ text: fit(verdict, 7), bold: !metric.passed, colour: theme.status(metric.passed ? 'pass' : 'fail') }, { text: `  ${score}` }];
}

/** The attempts of a `--repeat` result, when the report kept them. */
function attemptsOf(result: ResultSide['result']): ReadonlyArray<{ status: ScenarioResult['status'] }> | undefined {
  return result.attempts !== undefined && result.attempts.length > 1 ? result.attempts : undefined;
}

/** Segments cut or padded to exactly `width` characters. */
function cell(segments: readonly Segment[], width: number): Segment[] {
  const out: Segment[] = [];
  let room = width;
  for (const segment of segments) {
    if (room <= 0) break;
    const characters = Array.from(segment.text);
    const text = characters.length > room ? fit(segment.text, room) : segment.text;
    out.push({ ...segment, text });
    room -= Array.from(text).length;
  }
  if (room > 0) out.push({ text: ' '.repeat(room) });
  return out;
}

function cutLines(lines: string[], most: number, width: number): string[] {
  if (lines.length <= most) return lines;
  const shown = lines.slice(0, most);
  shown[most - 1] = fit(`${shown[most - 1]} …`, width).trimEnd();
  return shown;
}
