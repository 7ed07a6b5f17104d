/**
 * Restricted verticals are decided in @parley/config (where scenarios are loaded) and compared
 * after NFKC normalisation, case folding and trimming; re-exported here for the outputs that check
 * them (promotion, exports, calibration imports).
 */
export { restrictedVerticalProblem } from '@parley/config';
