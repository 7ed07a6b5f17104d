import { seededRandom } from '@parley/core';
import { quantileSorted } from 'simple-statistics';
import { labelPosition } from './confusion-matrix.js';
import { kappasFromCounts } from './kappa-from-counts.js';
import { disagreementWeights, type KappaWeighting } from './kappa-weights.js';
import { RATING_LABELS, type RatingPair } from './rating-labels.js';

export interface BootstrapKappaOptions {
  /** Seed of the resampling, so the same data give the same interval in every report. */
  seed: number;
  /** Default 1,000. */
  resamples?: number;
  /** Default 0.95. */
  level?: number;
  labels?: readonly number[];
}

export interface BootstrapKappaInterval {
  /** Undefined when no resample had a defined kappa. */
  low: number | undefined;
  high: number | undefined;
  level: number;
  resamples: number;
  /**
   * Resamples whose kappa was 0/0 (every drawn rating the same label). They are left out of the
   * percentiles, and counted here because many of them mean the interval stands on little.
   */
  undefined_resamples: number;
  seed: number;
}

/** The rating pairs of one confusion table, per item: `table[i]` are item i's pairs (maybe none). */
export type ItemPairs = ReadonlyArray<readonly RatingPair[]>;

/**
 * Percentile bootstrap intervals of kappa, resampling items (not pairs) with replacement: an item
 * rated by two reviewers gives two pairs against the judge, and those two stand or fall together.
 * One pass serves every requested weighting, so unweighted, linear and quadratic intervals come
 * from the same resamples.
 *
 * @param items each item's rating pairs (an item may have none: it is drawn and adds nothing).
 */
export function bootstrapKappaIntervals(items: ItemPairs, weightings: readonly KappaWeighting[], options: BootstrapKappaOptions): Record<KappaWeighting, BootstrapKappaInterval> {
  return bootstrapKappaTables([items], weightings, options)[0]!;
}

/**
 * {@link bootstrapKappaIntervals} for several tables over the same items at once (a calibration
 * report has sixteen: four comparisons × three axes and overall). Each resample draws the items
 * once and every table counts its pairs of the drawn items, so the report's rows come from the
 * same resamples and the cost is one draw per item per resample, not one per table.
 *
 * @param sums further tables, each the sum of the listed tables (an "overall" row pools the axis
 *   tables of its comparison); their results follow those of `tables`, in order.
 */
export function bootstrapKappaTables(
  tables: readonly ItemPairs[],
  weightings: readonly KappaWeighting[],
  options: BootstrapKappaOptions,
  sums: ReadonlyArray<readonly number[]> = [],
): Array<Record<KappaWeighting, BootstrapKappaInterval>> {
  const labels = options.labels ?? RATING_LABELS;
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  const size = labels.length;
  const cellsPerTable = size * size;
  const itemCount = tables.reduce((most, table) => Math.max(most, table.length), 0);

  // Every item as a run of cell numbers (table · k² + row · k + column) in one flat array: the
  // inner loop touches only typed arrays.
  const offsets = new Int32Array(itemCount + 1);
  const cellList: number[] = [];
  for (let item = 0; item < itemCount; item += 1) {
    offsets[item] = cellList.length;
    tables.forEach((table, tableIndex) => {
      for (const [first, second] of table[item] ?? []) {
        cellList.push(tableIndex * cellsPerTable + labelPosition(labels, first) * size + labelPosition(labels, second));
      }
    });
  }
  offsets[itemCount] = cellList.length;
  const cells = Int32Array.from(cellList);

  const weightTables = weightings.map((weighting) => disagreementWeights(size, weighting));
  const tableCount = tables.length + sums.length;
  // Defined kappas per table and weighting, in preallocated arrays (a report fills 48 of them).
  const estimates = Array.from({ length: tableCount }, () => weightings.map(() => new Float64Array(resamples)));
  const defined = Array.from({ length: tableCount }, () => new Int32Array(weightings.length));
  const random = seededRandom(options.seed);
  const counts = new Float64Array(tableCount * cellsPerTable);
  const rowTotals = new Float64Array(size);
  const columnTotals = new Float64Array(size);
  const kappas = new Float64Array(weightings.length);
  // How often each item was drawn in a resample: an item's pairs then count that many times at
  // once. About a third of the items are not drawn at all, so this adds to the counts a third less
  // often than counting draw by draw; the counts are whole numbers either way, so they are the same.
  const times = new Int32Array(itemCount);
  for (let round = 0; round < resamples; round += 1) {
    counts.fill(0);
    times.fill(0);
    for (let draw = 0; draw < itemCount; draw += 1) times[Math.floor(random.next() * itemCount)]! += 1;
    for (let item = 0; item < itemCount; item += 1) {
      const drawnTimes = times[item]!;
      if (drawnTimes === 0) continue;
      for (let cell = offsets[item]!, end = offsets[item + 1]!; cell < end; cell += 1) counts[cells[cell]!]! += drawnTimes;
    }
    sums.forEach((parts, index) => {
      const target = (tables.length + index) * cellsPerTable;
      for (const part of parts) {
        const source = part * cellsPerTable;
        for (let cell = 0; cell < cellsPerTable; cell += 1) counts[target + cell]! += counts[source + cell]!;
      }
    });
    for (let table = 0; table < tableCount; table += 1) {
      kappasFromCounts(counts, size, weightTables, table * cellsPerTable, rowTotals, columnTotals, kappas);
      for (let index = 0; index < weightTables.length; index += 1) {
        const kappa = kappas[index]!;
        if (!Number.isNaN(kappa)) estimates[table]![index]![defined[table]![index]!++] = kappa;
      }
    }
  }

  return estimates.map((perWeighting, table) => {
    const result = {} as Record<KappaWeighting, BootstrapKappaInterval>;
    weightings.forEach((weighting, index) => {
      // A typed array sorts numerically; quantileSorted wants a plain array.
      const sorted = Array.from(perWeighting[index]!.subarray(0, defined[table]![index]!).sort());
      const any = sorted.length > 0;
      result[weighting] = {
        low: any ? quantileSorted(sorted, (1 - level) / 2) : undefined,
        high: any ? quantileSorted(sorted, (1 + level) / 2) : undefined,
        level,
        resamples,
        undefined_resamples: resamples - sorted.length,
        seed: options.seed,
      };
    });
    return result;
  });
}
