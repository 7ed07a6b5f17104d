/** The metric of differences between values (Krippendorff 2011, section C). */
export type AlphaLevel = 'nominal' | 'ordinal' | 'interval';

/** One unit's values, one per rater; `null`/`undefined` where that rater gave none. */
export type ReliabilityUnit = ReadonlyArray<number | null | undefined>;

/**
 * Krippendorff's alpha for any number of raters with missing values, following Krippendorff (2011),
 * "Computing Krippendorff's Alpha-Reliability": build the coincidence matrix from every unit with
 * at least two values, then α = 1 − (n − 1) · Σ o_ck δ²_ck / Σ n_c n_k δ²_ck.
 *
 * - nominal: δ² = 0 for equal values, else 1;
 * - ordinal: δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)², ranks weighted by how often values occur;
 * - interval: δ² = (c − k)².
 *
 * Units with fewer than two values cannot be paired and are left out. `undefined` when nothing
 * is pairable or all pairable values are equal (expected disagreement 0: 0/0).
 *
 * @example
 * krippendorffAlpha([[1, 1], [2, 2], [3, null]], 'ordinal') // 1: the two pairable units agree
 */
export function krippendorffAlpha(units: ReadonlyArray<ReliabilityUnit>, level: AlphaLevel): number | undefined {
  return krippendorffAlphas(units, [level])[level];
}

/**
 * {@link krippendorffAlpha} at several levels from one coincidence matrix (a report wants ordinal
 * and interval alpha of the same ratings).
 */
export function krippendorffAlphas<Level extends AlphaLevel>(units: ReadonlyArray<ReliabilityUnit>, levels: readonly Level[]): Record<Level, number | undefined> {
  const result = {} as Record<Level, number | undefined>;
  const coincidence = coincidenceMatrix(units);
  for (const level of levels) result[level] = coincidence === undefined ? undefined : alphaOf(coincidence, level);
  return result;
}

interface Coincidences {
  values: number[];
  /** o_ck, row by row. */
  matrix: Float64Array;
  /** n_c. */
  marginals: Float64Array;
  total: number;
}

function coincidenceMatrix(units: ReadonlyArray<ReliabilityUnit>): Coincidences | undefined {
  // The distinct values of pairable units, in order.
  const seen = new Set<number>();
  for (const unit of units) {
    if (presentCount(unit) < 2) continue;
    for (const value of unit) if (value !== null && value !== undefined) seen.add(value);
  }
  const values = [...seen].sort((left, right) => left - right);
  const size = values.length;
  if (size === 0) return undefined;
  const position = positionLookup(values);

  const matrix = new Float64Array(size * size);
  const unitCounts = new Float64Array(size);
  for (const unit of units) {
    const present = presentCount(unit);
    if (present < 2) continue;
    if (present === 2) {
      // Most units are a pair of ratings: they add 1 to o_ck and o_kc, or 2 to o_cc, which is
      // what the loops below add for them (the other terms are 0), without the loops.
      let c = -1;
      let k = -1;
      for (const value of unit) {
        if (value === null || value === undefined) continue;
        if (c < 0) c = position(value);
        else k = position(value);
      }
      if (c === k) matrix[c * size + c]! += 2;
      else {
        matrix[c * size + k]! += 1;
        matrix[k * size + c]! += 1;
      }
      continue;
    }
    unitCounts.fill(0);
    for (const value of unit) if (value !== null && value !== undefined) unitCounts[position(value)]! += 1;
    const scale = 1 / (present - 1);
    for (let c = 0; c < size; c += 1) {
      const countC = unitCounts[c]!;
      if (countC === 0) continue;
      for (let k = 0; k < size; k += 1) {
        const countK = unitCounts[k]!;
        if (countK === 0) continue;
        matrix[c * size + k]! += countC * (c === k ? countK - 1 : countK) * scale;
      }
    }
  }
  const marginals = new Float64Array(size);
  for (let c = 0; c < size; c += 1) for (let k = 0; k < size; k += 1) marginals[c]! += matrix[c * size + k]!;
  return { values, matrix, marginals, total: marginals.reduce((sum, count) => sum + count, 0) };
}

function alphaOf({ values, matrix, marginals, total }: Coincidences, level: AlphaLevel): number | undefined {
  const size = values.length;
  const distance = (c: number, k: number): number => {
    if (level === 'nominal') return 1;
    if (level === 'interval') return (values[c]! - values[k]!) ** 2;
    const [low, high] = c < k ? [c, k] : [k, c];
    let between = 0;
    for (let g = low; g <= high; g += 1) between += marginals[g]!;
    return (between - (marginals[low]! + marginals[high]!) / 2) ** 2;
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < size; c += 1) {
    for (let k = 0; k < size; k += 1) {
      if (c === k) continue;
      const delta = distance(c, k);
      observed += matrix[c * size + k]! * delta;
      expected += marginals[c]! * marginals[k]! * delta;
    }
  }
  if (expected === 0) return undefined;
  return 1 - ((total - 1) * observed) / expected;
}

/** Value → index; a plain array for small whole numbers (ratings), a map otherwise. */
function positionLookup(values: readonly number[]): (value: number) => number {
  const smallWholeNumbers = values.every((value) => Number.isInteger(value) && value >= 0 && value < 256);
  if (smallWholeNumbers) {
    const table = new Int32Array(256).fill(-1);
    values.forEach((value, index) => (table[value] = index));
    return (value) => table[value]!;
  }
  const map = new Map(values.map((value, index) => [value, index]));
  return (value) => map.get(value)!;
}

function presentCount(unit: ReliabilityUnit): number {
  let count = 0;
  for (const value of unit) if (value !== null && value !== undefined) count += 1;
  return count;
}
