import { describe, expect, it } from 'vitest';
import { bucketOf, inSlice } from './bucket-of.js';

describe('bucketOf', () => {
  it('matches vectors computed independently (Python hashlib), so the rule never drifts', () => {
    // int.from_bytes(hashlib.sha256(f"{salt}:{id}".encode()).digest()[:8], "big") % 10000
    expect(bucketOf('conv-1', 'monitor')).toBe(8);
    expect(bucketOf('wa:254722118904:2026-11-27', 'monitor')).toBe(9244);
    expect(bucketOf('a', '')).toBe(3930);
    expect(bucketOf('12345', 'canary')).toBe(2235);
  });

  it('puts 5 % ± 0.5 % of many ids in a 5 % slice, and another salt picks other ids', () => {
    const ids = Array.from({ length: 20_000 }, (_, index) => `conversation-${index}`);
    const monitored = ids.filter((id) => inSlice(id, 'monitor', 5));
    expect(monitored.length / ids.length).toBeGreaterThan(0.045);
    expect(monitored.length / ids.length).toBeLessThan(0.055);
    const other = new Set(ids.filter((id) => inSlice(id, 'canary', 5)));
    const shared = monitored.filter((id) => other.has(id)).length;
    // Independent 5 % slices share about 0.25 % of ids, not 5 %.
    expect(shared / ids.length).toBeLessThan(0.01);
  });
});
