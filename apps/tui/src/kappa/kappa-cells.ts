import { formatBias, formatMeasure, type Measured } from '@parley/calibration';

/** Column widths of the comparison table (per axis: kappa and its interval, agreement, bias, change, ceiling, gate). */
export const TABLE_COLUMNS = { cursor: 2, axis: 24, kappa: 6, interval: 11, exact: 5, bias: 5, change: 6, ceiling: 5, gate: 4 } as const;

/** `text` cut to `width` (with … when cut) and padded to it. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
  return align === 'left' ? cut.padEnd(width) : cut.padStart(width);
}

/**
 * A statistic in a narrow column: three decimals, two when three do not fit (a negative kappa such
 * as `-0.80` in the five columns of `ceil`: cut to `-0.8…` it would read as another number), `undef`
 * where it is undefined (never 0 or 1).
 */
export function measureCell(value: Measured | undefined, width: number = TABLE_COLUMNS.kappa): string {
  if (value === null || value === undefined) return fit('undef', width, 'right');
  const text = formatMeasure(value);
  return fit(text.length > width ? formatMeasure(value, 2) : text, width, 'right');
}

export function biasCell(value: Measured | undefined): string {
  return fit(value === null || value === undefined ? 'undef' : formatBias(value), TABLE_COLUMNS.bias, 'right');
}

/**
 * `0.944–0.991`: a 95 % interval, with two decimals when three do not fit (`-0.47–-0.03`: a
 * negative bound would otherwise cut off the upper one); `—` when the report has none.
 */
export function intervalCell(interval: { low: Measured; high: Measured } | undefined): string {
  if (interval === undefined || interval.low === null || interval.high === null) return fit('—', TABLE_COLUMNS.interval, 'right');
  const { low, high } = interval;
  const text = `${low.toFixed(3)}–${high.toFixed(3)}`;
  return fit(text.length > TABLE_COLUMNS.interval ? `${low.toFixed(2)}–${high.toFixed(2)}` : text, TABLE_COLUMNS.interval, 'right');
}

/** The change of a kappa since the previous report: `+0.031`, `−0.120`; blank without one. */
export function changeCell(now: Measured | undefined, before: Measured | undefined): string {
  if (now === null || now === undefined || before === null || before === undefined) return fit('', TABLE_COLUMNS.change);
  const change = now - before;
  const sign = change > 0.0005 ? '+' : change < -0.0005 ? '−' : '±';
  return fit(`${sign}${Math.abs(change).toFixed(3)}`, TABLE_COLUMNS.change, 'right');
}

/** The table's header, naming the comparison in the axis column. */
export function tableHeader(comparisonLabel: string): string {
  return [
    ' '.repeat(TABLE_COLUMNS.cursor - 1),
    fit(comparisonLabel.toUpperCase(), TABLE_COLUMNS.axis),
    fit('κ quad', TABLE_COLUMNS.kappa, 'right'),
    fit('95 % CI', TABLE_COLUMNS.interval, 'right'),
    fit('exact', TABLE_COLUMNS.exact, 'right'),
    fit('bias', TABLE_COLUMNS.bias, 'right'),
    fit('Δ prev', TABLE_COLUMNS.change, 'right'),
    fit('ceil', TABLE_COLUMNS.ceiling, 'right'),
    fit('gate', TABLE_COLUMNS.gate),
  ].join(' ');
}
