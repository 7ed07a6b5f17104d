import { seededRandom } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { compareCanary, type ArmConversation, type ConversationScore } from './canary-comparison.js';

/** `count` conversations of a version, the first `negative` of them with a 👎. */
function arm(version: string, count: number, negative: number): ArmConversation[] {
  return Array.from({ length: count }, (_, index) => ({ conversation_id: `${version}-${index}`, prompt_version: version, negative: index < negative }));
}

const base = { stableVersion: 'v1', canaryVersion: 'v2', withFeedback: true, resamples: 2_000 };

describe('compareCanary', () => {
  it('rolls back a canary with 30 % 👎 against 5 % on stable (n = 300 / 2,000)', () => {
    const result = compareCanary({ ...base, conversations: [...arm('v1', 2000, 100), ...arm('v2', 300, 90)], random: seededRandom(1) });
    expect(result.verdict).toBe('rollback');
    expect(result.feedback?.canary.rate).toBeCloseTo(0.3);
    expect(result.feedback?.stable.rate).toBeCloseTo(0.05);
    expect(result.feedback?.test.z).toBeGreaterThan(10);
    expect(result.reasons[0]).toMatch(/👎 rate 30\.0 % on the canary vs 5\.0 % on stable/);
  });

  it('promotes equal rates once the canary has the conversations the power calculation asks for', () => {
    const result = compareCanary({ ...base, conversations: [...arm('v1', 2000, 100), ...arm('v2', 300, 15)], random: seededRandom(1) });
    // Stable 5 %, a rise of 5 points, α 0.05 one-sided, power 0.8, stable : canary = 6.67 → 180.
    expect(result.power.minimum_canary).toBe(180);
    expect(result.feedback?.worse).toBe(false);
    expect(result.verdict).toBe('promote');
  });

  it('continues with equal rates while the canary is below that size', () => {
    const result = compareCanary({ ...base, conversations: [...arm('v1', 2000, 100), ...arm('v2', 100, 5)], random: seededRandom(1) });
    expect(result.verdict).toBe('continue');
    expect(result.reasons[0]).toMatch(/^100 canary conversations of the \d+ needed/);
  });

  it('continues with 20 canary conversations', () => {
    const result = compareCanary({ ...base, conversations: [...arm('v1', 2000, 100), ...arm('v2', 20, 2)], random: seededRandom(1) });
    expect(result.conversations.canary).toBe(20);
    expect(result.verdict).toBe('continue');
  });

  it('ignores conversations of other versions, and continues when stable has none', () => {
    const result = compareCanary({ ...base, conversations: [...arm('v0', 500, 0), ...arm('v2', 300, 90)], random: seededRandom(1) });
    expect(result.conversations).toEqual({ stable: 0, canary: 300 });
    expect(result.feedback).toBeNull();
    expect(result.verdict).toBe('continue');
  });

  it('without feedback and without scores, only the sample size decides', () => {
    const result = compareCanary({ ...base, withFeedback: false, conversations: [...arm('v1', 2000, 100), ...arm('v2', 300, 90)], random: seededRandom(1) });
    expect(result.feedback).toBeNull();
    expect(result.metrics).toBeNull();
    expect(result.verdict).toBe('promote');
  });

  describe('judged metrics', () => {
    const conversations = [...arm('v1', 400, 20), ...arm('v2', 200, 10)];
    const scores = (canaryMean: number): ConversationScore[] => [
      ...arm('v1', 400, 0).map((conversation, index) => ({ conversation_id: conversation.conversation_id, metric: 'task_completion', score: 0.8 + ((index % 5) - 2) * 0.05 })),
      ...arm('v2', 200, 0).map((conversation, index) => ({ conversation_id: conversation.conversation_id, metric: 'task_completion', score: canaryMean + ((index % 5) - 2) * 0.05 })),
      { conversation_id: 'elsewhere-1', metric: 'task_completion', score: 0 },
    ];

    it('rolls back when the interval of the difference lies wholly below 0', () => {
      const result = compareCanary({ ...base, conversations, scores: scores(0.7), random: seededRandom(3) });
      const metric = result.metrics![0]!;
      expect(metric).toMatchObject({ metric: 'task_completion', stable: { scored: 400 }, canary: { scored: 200 }, worse: true });
      expect(metric.difference).toBeCloseTo(-0.1);
      expect(metric.interval!.high).toBeLessThan(0);
      expect(result.verdict).toBe('rollback');
    });

    it('keeps a metric that did not move, and gives the same interval for the same seed', () => {
      const first = compareCanary({ ...base, conversations, scores: scores(0.8), random: seededRandom(3) });
      const second = compareCanary({ ...base, conversations, scores: scores(0.8), random: seededRandom(3) });
      expect(first.metrics![0]!.worse).toBe(false);
      expect(first.metrics![0]!.interval!.low).toBeLessThan(0);
      expect(first.metrics![0]!.interval!.high).toBeGreaterThan(0);
      expect(second.metrics).toEqual(first.metrics);
      // 200 canary conversations are below the 👎-rate sample size at a 2 : 1 ratio: continue, not rollback.
      expect(first.verdict).toBe('continue');
    });
  });
});
