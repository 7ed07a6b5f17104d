import { hashCanonical } from '@parley/core';
import type { JudgeCacheRecord } from '@parley/store';
import { CALIBRATION_PROMPT_VERSION } from './judge-request.js';
import type { CalibrationRubric } from './rubric-file.js';
import type { RaterModel } from './rater-models.js';

/** The judge cache's `metric` for calibration ratings (so `parley cache clear --metric calibration` works). */
export const CALIBRATION_CACHE_METRIC = 'calibration';

/** What a calibration rating is cached under, in the judge cache's own terms (docs/file-formats.md, "Judge metrics"). */
export type CalibrationCacheEntry = Omit<JudgeCacheRecord, 'value' | 'cost_usd' | 'created_at'>;

/**
 * The judge cache key of a rating: sha256 of the canonical JSON of the item, the prompt version,
 * the judge model, the "metric version" (the rubric's version and content hash, so an edited
 * rubric misses even under an unchanged version) and the transcript digest.
 */
export function calibrationCacheEntry(itemId: string, itemDigest: string, rubric: CalibrationRubric, rater: RaterModel): CalibrationCacheEntry {
  const entry = {
    scenario_id: `calibration:${itemId}`,
    metric: CALIBRATION_CACHE_METRIC,
    metric_version: `${rubric.version}+${rubric.sha256.slice(0, 12)}`,
    judge_model: `${rater.provider}:${rater.model}@t${rater.temperature ?? 0}`,
    prompt_version: CALIBRATION_PROMPT_VERSION,
  };
  return { ...entry, key: hashCanonical({ ...entry, transcript_digest: itemDigest }) };
}
