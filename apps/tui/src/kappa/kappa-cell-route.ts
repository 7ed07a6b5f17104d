import type { ComparisonId, LabelledPair } from '@parley/calibration';

/** What the items of one matrix cell screen shows (`Enter` on a cell of the kappa screen). */
export interface KappaCell {
  comparison: ComparisonId;
  /** `judge vs human`. */
  label: string;
  axis: string;
  /** The first rater's rating (the matrix row) and the second's (the column). */
  row: number;
  column: number;
  /** The pairs behind the cell, as the set and the judge session give them now. */
  pairs: readonly LabelledPair[];
  /** The cell's count in the report file (differs when the set changed since the report). */
  reportCount: number;
  reportDate: string;
}
