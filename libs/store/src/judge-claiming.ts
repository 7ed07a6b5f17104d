import type { JudgeCacheRecord } from './judge-cache-store.js';

/** What claim-or-await needs of a verdict cache: the store's judge cache, or a test's. */
export interface ClaimableCache {
  get(key: string): JudgeCacheRecord | undefined;
  claim?(key: string, leaseMs: number): 'claimed' | 'held';
  renew?(key: string, leaseMs: number): boolean;
  release?(key: string): void;
}

/**
 * How long a claim to judge a verdict lasts unless renewed: its holder renews it every third of
 * this while the judge call goes on, so only a holder that died (or hangs) lets it run out, and
 * then another process judges the verdict instead of waiting for it.
 */
export const JUDGE_CLAIM_LEASE_MS = 30_000;
/** How often a process waiting for another's verdict looks for it in the cache. */
export const JUDGE_CLAIM_POLL_MS = 100;

/** Waits `ms` (polling for a verdict another process is judging); tests pass their own. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Looks `key` up, and when it is missing claims its judging or waits while another process judges
 * it (docs/file-formats.md, "Judge metrics", cache): returns the cached entry (a hit, also when it
 * arrived while waiting) or `claimed` (judge it, put it, then call the returned release).
 */
export async function cachedOrClaimed(
  cache: ClaimableCache,
  key: string,
  usable: (entry: JudgeCacheRecord) => boolean,
  sleep: Sleep = realSleep,
): Promise<{ entry: JudgeCacheRecord } | { claimed: true; release: () => void }> {
  for (;;) {
    const entry = cache.get(key);
    if (entry !== undefined && usable(entry)) return { entry };
    if (cache.claim === undefined) return { claimed: true, release: () => undefined };
    if (cache.claim(key, JUDGE_CLAIM_LEASE_MS) === 'claimed') {
      // The holder before us may have stored its verdict and released its claim between our look
      // and our claim (put, then release): look once more before judging it a second time.
      const stored = cache.get(key);
      if (stored !== undefined && usable(stored)) {
        cache.release?.(key);
        return { entry: stored };
      }
      const renewal = setInterval(() => cache.renew?.(key, JUDGE_CLAIM_LEASE_MS), JUDGE_CLAIM_LEASE_MS / 3);
      renewal.unref();
      return {
        claimed: true,
        release: () => {
          clearInterval(renewal);
          cache.release?.(key);
        },
      };
    }
    await sleep(JUDGE_CLAIM_POLL_MS);
  }
}
