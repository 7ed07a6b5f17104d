import { hashCanonical } from '@parley/core';
import type { JudgeCacheRecord } from '@parley/store';

/**
 * What identifies a judge verdict (docs/file-formats.md, "Judge metrics", cache): each part is a
 * distinct cause that must invalidate it. `question` is the expectation's own parameters
 * (conversation_judge's `criteria`) when it has any: the same metric asked another question is
 * another verdict. `attempt` is the repetition under `--repeat N` from the second on, so that N
 * live attempts are N judgements and not one judgement reused N times.
 */
export interface JudgeCacheKeyParts {
  scenario_id: string;
  /** `<prompt file stem>@<git short sha>[-dirty.<8 hex>]`, see prompt-version.ts. */
  prompt_version: string;
  /** `<provider>:<model>` of the judge. */
  judge_model_version: string;
  /** `<metric>:<version>`. */
  metric_version: string;
  /** See transcript-digest.ts. */
  transcript_digest: string;
  question?: string;
  /** `votes_on_fail` as a panel: the panel's `<provider>:<model>`s, comma-separated (another panel, another verdict). */
  panel?: string;
  attempt?: number;
}

/** Hex sha256 of the canonical JSON of the key parts (absent parts leave the five documented parts as they are). */
export function judgeCacheKey(parts: JudgeCacheKeyParts): string {
  return hashCanonical(parts);
}

/** One cached judgement, in the shape the store keeps (`value` is the judge's outcome, opaque to it). */
export type JudgeCacheEntry = JudgeCacheRecord;

/** Where verdicts are kept between runs: `.parley/parley.db` (see @parley/store's openJudgeCache). */
export interface JudgeCache {
  get(key: string): JudgeCacheEntry | undefined;
  put(entry: JudgeCacheEntry): void;
  /**
   * A cache shared between processes (the store's judge_claims) says who judges a verdict that is
   * not cached yet: `claimed` for the caller, `held` while another judging of it is going on.
   * Without these a cache is this process's alone and every miss is judged.
   */
  claim?(key: string, leaseMs: number): 'claimed' | 'held';
  renew?(key: string, leaseMs: number): boolean;
  release?(key: string): void;
}
