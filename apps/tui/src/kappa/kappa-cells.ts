import { formatBias, formatMeasure, type Measured } from '@parley/calibration';

/** Column widths of the gate table (per axis: kappas, agreement, bias, gate mark, band). */
export const GATE_COLUMNS = { cursor: 2, axis: 24, kappa: 6, exact: 6, bias: 6, gate: 4, band: 14 } as const;

/** `text` cut to `width` (with … when cut) and padded to it. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
  return align === 'left' ? cut.padEnd(width) : cut.padStart(width);
}

/** A statistic in a narrow column: three decimals, `undef` where it is undefined (never 0 or 1). */
export function measureCell(value: Measured | undefined, width: number = GATE_COLUMNS.kappa): string {
  return fit(value === null || value === undefined ? 'undef' : formatMeasure(value), width, 'right');
}

export function biasCell(value: Measured | undefined): string {
  return fit(value === null || value === undefined ? 'undef' : formatBias(value), GATE_COLUMNS.bias, 'right');
}

export function gateHeader(): string {
  return [
    ' '.repeat(GATE_COLUMNS.cursor - 1),
    fit('AXIS (judge vs human)', GATE_COLUMNS.axis),
    fit('κ quad', GATE_COLUMNS.kappa, 'right'),
    fit('κ lin', GATE_COLUMNS.kappa, 'right'),
    fit('exact', GATE_COLUMNS.exact, 'right'),
    fit('bias', GATE_COLUMNS.bias, 'right'),
    fit('gate', GATE_COLUMNS.gate),
    fit('band', GATE_COLUMNS.band),
  ].join(' ');
}
