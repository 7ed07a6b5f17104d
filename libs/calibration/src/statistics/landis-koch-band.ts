/** Landis & Koch (1977), "The measurement of observer agreement for categorical data". */
export type LandisKochBand = 'poor' | 'slight' | 'fair' | 'moderate' | 'substantial' | 'almost perfect';

/**
 * The verbal band of a kappa: below 0 poor, up to 0.20 slight, 0.40 fair, 0.60 moderate, 0.80
 * substantial, above that almost perfect. An undefined kappa has no band.
 *
 * @example
 * landisKochBand(0.72) // 'substantial'
 */
export function landisKochBand(kappa: number | undefined): LandisKochBand | undefined {
  if (kappa === undefined) return undefined;
  if (kappa < 0) return 'poor';
  if (kappa <= 0.2) return 'slight';
  if (kappa <= 0.4) return 'fair';
  if (kappa <= 0.6) return 'moderate';
  if (kappa <= 0.8) return 'substantial';
  return 'almost perfect';
}
