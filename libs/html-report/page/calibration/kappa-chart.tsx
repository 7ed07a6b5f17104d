import type { CalibrationReport } from '@parley/calibration';
import { measure } from '../format.js';
import { HeadRow } from '../table-head.js';

const AXIS_ROW = 22;
const LEFT = 190;
const WIDTH = 640;
const RIGHT = 20;

/**
 * κ (quadratic) with its 95 % bootstrap interval, per axis for each comparison: a dot and a
 * whisker on a scale from the lowest value (at most 0) to 1, with the gate's minimum as a line.
 * Hand-written SVG: a few lines and circles need no chart library. The table beside it has the
 * same numbers for screen readers and for reading exactly.
 */
export function KappaChart({ report }: { report: CalibrationReport }) {
  const rows = report.comparisons.flatMap((comparison) => comparison.axes.map((axis) => ({ comparison: comparison.label, ...axis })));
  const values = rows.flatMap((row) => [row.kappa.quadratic, row.bootstrap_interval.quadratic.low, row.bootstrap_interval.quadratic.high]).filter((value): value is number => value !== null);
  const low = Math.min(0, ...values);
  const x = (value: number) => LEFT + ((value - low) / (1 - low)) * (WIDTH - LEFT - RIGHT);
  const groups = report.comparisons.length;
  const height = rows.length * AXIS_ROW + groups * 24 + 30;
  let y = 10;
  const marks = [];
  for (const comparison of report.comparisons) {
    y += 18;
    marks.push(
      <text key={`${comparison.id}-label`} x={4} y={y} class="chart-group">
        {comparison.label}
      </text>,
    );
    y += 6;
    for (const axis of comparison.axes) {
      y += AXIS_ROW;
      const kappa = axis.kappa.quadratic;
      const interval = axis.bootstrap_interval.quadratic;
      marks.push(
        <g key={`${comparison.id}-${axis.axis}`}>
          <text x={14} y={y - 6} class="chart-label">
            {axis.axis}
          </text>
          {interval.low !== null && interval.high !== null ? <line x1={x(interval.low)} x2={x(interval.high)} y1={y - 10} y2={y - 10} class="whisker" /> : null}
          {kappa !== null ? <circle cx={x(kappa)} cy={y - 10} r={4.5} class="dot" /> : <text x={x(low)} y={y - 6} class="chart-label">undefined</text>}
        </g>,
      );
    }
  }
  const ticks = [low, ...[0, 0.2, 0.4, 0.6, 0.8, 1].filter((tick) => tick > low)];
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby="kappa-chart-title" width="100%">
        <title id="kappa-chart-title">Quadratic kappa with its 95 % interval per axis and comparison; the gate needs {report.gate.min_kappa}</title>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={x(tick)} x2={x(tick)} y1={10} y2={height - 20} class="grid" />
            <text x={x(tick)} y={height - 6} class="tick">
              {tick.toFixed(1)}
            </text>
          </g>
        ))}
        <line x1={x(report.gate.min_kappa)} x2={x(report.gate.min_kappa)} y1={10} y2={height - 20} class="gate-line" />
        {marks}
      </svg>
      <figcaption>
        Dots: quadratic κ; bars: 95 % bootstrap interval over items; dashed line: the gate's minimum κ {report.gate.min_kappa}.
      </figcaption>
    </figure>
  );
}

/** The chart's numbers as a table. */
export function KappaTable({ report }: { report: CalibrationReport }) {
  return (
    <table class="kappa-table">
      <caption>κ per axis and comparison</caption>
      <thead>
        <HeadRow columns={['Comparison', 'Axis', ['Pairs', 'num'], ['κ quadratic', 'num'], ['95 % interval', 'num'], ['Exact agreement', 'num'], ['Bias', 'num'], 'Band']} />
      </thead>
      <tbody>
        {report.comparisons.flatMap((comparison) =>
          comparison.axes.map((axis) => (
            <tr key={`${comparison.id}-${axis.axis}`}>
              <td>{comparison.label}</td>
              <th scope="row">{axis.axis}</th>
              <td class="num">{axis.n}</td>
              <td class="num">{measure(axis.kappa.quadratic)}</td>
              <td class="num">
                {axis.bootstrap_interval.quadratic.low === null || axis.bootstrap_interval.quadratic.high === null
                  ? '–'
                  : `${measure(axis.bootstrap_interval.quadratic.low)} to ${measure(axis.bootstrap_interval.quadratic.high)}`}
              </td>
              <td class="num">{measure(axis.exact_agreement)}</td>
              <td class="num">{axis.bias === null ? 'undefined' : axis.bias.toFixed(2)}</td>
              <td>{axis.band ?? '–'}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}
