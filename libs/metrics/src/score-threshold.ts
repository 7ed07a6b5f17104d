/**
 * Sums of similarities are floating point (1/3 + 1/3 + 1/3 may land a hair under 1), so a score
 * within this distance below the threshold still meets it.
 */
const TOLERANCE = 1e-9;

export function meetsThreshold(score: number, threshold: number): boolean {
  return score >= threshold - TOLERANCE;
}

/**
 * `tool_correctness 0.75 < 0.8`: the score with as few decimals as keep it distinguishable from
 * the threshold, so a reason never reads `0.8 < 0.8`.
 *
 * @example describeScore('tool_correctness', 0.7999, 0.8) === 'tool_correctness 0.7999 < 0.8'
 */
export function describeScore(metricName: string, score: number, threshold: number): string {
  const comparison = meetsThreshold(score, threshold) ? '≥' : '<';
  return `${metricName} ${roundDistinctly(score, threshold)} ${comparison} ${roundDistinctly(threshold, score)}`;
}

function roundDistinctly(value: number, other: number): string {
  for (let decimals = 2; decimals < 6; decimals += 1) {
    if (Math.abs(value - other) <= TOLERANCE || round(value, decimals) !== round(other, decimals)) {
      return String(round(value, decimals));
    }
  }
  return String(round(value, 6));
}

function round(value: number, decimals: number): number {
  return Number(value.toFixed(decimals));
}
