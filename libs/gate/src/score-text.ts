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
