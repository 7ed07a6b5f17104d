/**
 * A score for a message: at most four decimals, no trailing zeros, so floating-point noise
 * (`0.85 - 0.92 = -0.07000000000000006`) never reaches a reader.
 *
 * @example formatScore(0.8500000001) === '0.85'
 */
export function formatScore(value: number): string {
  return String(Number(value.toFixed(4)));
}

/** A difference with its sign: `+0.02`, `-0.07`, `0`. */
export function formatDelta(value: number): string {
  const text = formatScore(value);
  return value > 0 && text !== '0' ? `+${text}` : text;
}

/**
 * A score in a table column: always two decimals, so a column of scores lines up; `–` for none.
 *
 * @example formatScoreCell(0.8) === '0.80'
 */
export function formatScoreCell(score: number | null): string {
  return score === null ? '–' : score.toFixed(2);
}

/** A difference in a table column, with its sign and two decimals: `+0.12`, `-0.05`, `0.00`. */
export function formatDeltaCell(delta: number): string {
  const rounded = Math.round(delta * 100) / 100;
  if (rounded === 0) return '0.00';
  return `${rounded > 0 ? '+' : ''}${rounded.toFixed(2)}`;
}
