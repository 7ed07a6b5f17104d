import { analyticKappaInterval } from '../statistics/analytic-kappa-interval.js';
import type { BootstrapKappaInterval } from '../statistics/bootstrap-kappa-interval.js';
import { cohenKappa } from '../statistics/cohen-kappa.js';
import { confusionMatrix } from '../statistics/confusion-matrix.js';
import { exactAgreement } from '../statistics/exact-agreement.js';
import { KAPPA_WEIGHTINGS, type KappaWeighting } from '../statistics/kappa-weights.js';
import { krippendorffAlphas } from '../statistics/krippendorff-alpha.js';
import { landisKochBand, type LandisKochBand } from '../statistics/landis-koch-band.js';
import { meanSignedDifference } from '../statistics/mean-signed-difference.js';
import type { RatingPair } from '../statistics/rating-labels.js';

/** In reports `null` is "undefined": 0/0, or nothing to compute from. Never 0, 1 or NaN. */
export type Measured = number | null;

export interface IntervalSummary {
  low: Measured;
  high: Measured;
}

export interface AgreementSummary {
  /** Rating pairs compared. */
  n: number;
  /** Items that gave at least one pair. */
  items: number;
  kappa: Record<KappaWeighting, Measured>;
  /** Fleiss, Cohen & Everitt (1969), 95%. */
  analytic_interval: Record<KappaWeighting, IntervalSummary & { standard_error: Measured }>;
  /** Percentile bootstrap over items, 95%. */
  bootstrap_interval: Record<KappaWeighting, IntervalSummary & { undefined_resamples: number }>;
  exact_agreement: Measured;
  /** Mean signed difference, first − second (judge − human). */
  bias: Measured;
  alpha: { ordinal: Measured; interval: Measured };
  /** Rows: first rater's rating 1–5; columns: second rater's. */
  confusion_matrix: number[][];
  /** Landis–Koch band of the quadratic kappa. */
  band: LandisKochBand | null;
}

/**
 * Every agreement statistic of the calibration report (docs/calibration.md) for one comparison on
 * one axis (or overall), given the table's bootstrap intervals (computed for all tables of a report
 * at once).
 */
export function agreementSummary(items: ReadonlyArray<readonly RatingPair[]>, bootstrap: Record<KappaWeighting, BootstrapKappaInterval>): AgreementSummary {
  const pairs = items.flat();
  const matrix = confusionMatrix(pairs);
  const kappa = {} as AgreementSummary['kappa'];
  const analytic = {} as AgreementSummary['analytic_interval'];
  const bootstrapSummary = {} as AgreementSummary['bootstrap_interval'];
  for (const weighting of KAPPA_WEIGHTINGS) {
    kappa[weighting] = cohenKappa(matrix, weighting) ?? null;
    const interval = analyticKappaInterval(matrix, weighting);
    analytic[weighting] = { low: interval?.low ?? null, high: interval?.high ?? null, standard_error: interval?.standard_error ?? null };
    const resampled = bootstrap[weighting];
    bootstrapSummary[weighting] = { low: resampled.low ?? null, high: resampled.high ?? null, undefined_resamples: resampled.undefined_resamples };
  }
  const alpha = krippendorffAlphas(pairs, ['ordinal', 'interval']);
  return {
    n: pairs.length,
    items: items.filter((itemPairs) => itemPairs.length > 0).length,
    kappa,
    analytic_interval: analytic,
    bootstrap_interval: bootstrapSummary,
    exact_agreement: exactAgreement(pairs) ?? null,
    bias: meanSignedDifference(pairs) ?? null,
    alpha: { ordinal: alpha.ordinal ?? null, interval: alpha.interval ?? null },
    confusion_matrix: matrix,
    band: landisKochBand(kappa.quadratic ?? undefined) ?? null,
  };
}
