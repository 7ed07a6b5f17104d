import { CalibrationSetSchema, type CalibrationSet } from '@parley/config';
import { transcriptDigest } from '../import/transcript-digest.js';
import type { CalibrationSession, StoredJudgeRating } from '../store/calibration-store.js';

const AXES = ['intent_comprehension', 'response_naturalness', 'cultural_appropriateness'];

type Triple = readonly [number, number, number];

/** A set whose item i is rated `humans[reviewer][i]` (undefined: that reviewer skipped it). */
export function ratedSet(humans: Record<string, ReadonlyArray<Triple | undefined>>, rubricVersion = '1.0.0'): CalibrationSet {
  const count = Math.max(...Object.values(humans).map((list) => list.length));
  // Through the schema, as the loader would: ratings are typed by it.
  return CalibrationSetSchema.parse({
    schema_version: 1,
    rubric_version: rubricVersion,
    owner: 'calibration-owner',
    axes: [...AXES],
    items: Array.from({ length: count }, (_, index) => ({
      id: `cal-2026-11-${String(index + 1).padStart(3, '0')}`,
      added: '2026-11-02',
      source: 'synthetic',
      language: 'sw',
      transcript: [
        { role: 'user', content: `Habari, ombi namba ${index}` },
        { role: 'assistant', content: 'Karibu!' },
      ],
      ratings: Object.entries(humans).flatMap(([reviewer, list]) => {
        const triple = list[index];
        if (triple === undefined) return [];
        return [{ reviewer, rated_at: '2026-11-03T10:00:00Z', rubric_version: rubricVersion, intent_comprehension: triple[0], response_naturalness: triple[1], cultural_appropriateness: triple[2] }];
      }),
    })),
  });
}

export function session(id: string, extra: Partial<CalibrationSession> = {}): CalibrationSession {
  return {
    id,
    set_path: 'calibration',
    started_at: `2026-12-07T09:00:00.000Z`,
    finished_at: '2026-12-07T09:05:00.000Z',
    mode: 'live',
    rubric_version: '1.0.0',
    rubric_sha256: 'a'.repeat(64),
    raters: { judge: { provider: 'anthropic', model: 'claude-opus-4-7' }, cross_check: { provider: 'openai', model: 'gpt-4.1' } },
    items: 0,
    parley_version: '0.1.0',
    ...extra,
  };
}

/** Model ratings of the set's items, item i rated `triples[i]` (undefined: an error). */
export function modelRatings(set: CalibrationSet, sessionId: string, rater: 'judge' | 'cross_check', triples: ReadonlyArray<Triple | undefined>): StoredJudgeRating[] {
  return set.items.map((item, index) => {
    const triple = triples[index];
    return {
      session_id: sessionId,
      item_id: item.id,
      rater,
      provider: rater === 'judge' ? 'anthropic' : 'openai',
      model: rater === 'judge' ? 'claude-opus-4-7' : 'gpt-4.1',
      item_digest: transcriptDigest(item.transcript),
      cache_key: 'k',
      scores: triple === undefined ? null : { intent_comprehension: triple[0], response_naturalness: triple[1], cultural_appropriateness: triple[2] },
      reason: triple === undefined ? null : 'ok',
      error: triple === undefined ? 'http: 500' : null,
      raw_output: null,
      cached: false,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      latency_ms: 0,
    };
  });
}
