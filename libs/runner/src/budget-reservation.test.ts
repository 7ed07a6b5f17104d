import fc from 'fast-check';
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import type { CompletionRequest, Provider } from '@parley/core';
import { isProviderError } from '@parley/providers';
import { BudgetTracker, shardBudget } from './budget.js';
import { budgetedProvider, callWorstCaseUsd } from './call-budget.js';

/** A scenario of the property: its calls, each with its max_tokens and how much of its worst case it really costs (0–1). */
interface FakeScenario {
  calls: Array<{ maxTokens: number; text: string; used: number }>;
}

/**
 * A provider that charges per call: it answers after a few turns of the event loop (so the calls of
 * many scenarios interleave) with usage of at most what was sent (in bytes) and `max_tokens`.
 */
function chargingProvider(usedOf: (request: CompletionRequest) => number, charged: { usd: number }, pricing: Record<string, { input: number; output: number }>): Provider {
  return {
    async complete(request) {
      for (let tick = 0; tick < 3; tick += 1) await new Promise((resolve) => setImmediate(resolve));
      const used = usedOf(request);
      const inputBytes = Buffer.byteLength(JSON.stringify({ messages: request.messages }), 'utf8');
      const usage = { input_tokens: Math.floor(inputBytes * used), output_tokens: Math.floor((request.max_tokens ?? 0) * used) };
      const price = pricing[request.model]!;
      charged.usd += (usage.input_tokens * price.input + usage.output_tokens * price.output) / 1_000_000;
      return { content: 'ok', tool_calls: [], usage, finish_reason: 'stop', model: request.model, latency_ms: 1 };
    },
  };
}

/** Runs one shard's scenarios as the runner does: reserve before starting, hold each call's worst case, release after. */
async function runShard(scenarios: readonly FakeScenario[], limitUsd: number, concurrency: number, pricing: Record<string, { input: number; output: number }>): Promise<{ tracker: BudgetTracker; charged: number }> {
  const tracker = new BudgetTracker(limitUsd);
  const charged = { usd: 0 };
  const limit = pLimit(concurrency);
  await Promise.all(
    scenarios.map((scenario, index) =>
      limit(async () => {
        const account = tracker.openScenario();
        if (account === undefined) return;
        const uses = new Map<CompletionRequest, number>();
        const provider = budgetedProvider(chargingProvider((request) => uses.get(request)!, charged, pricing), account, pricing);
        try {
          for (const call of scenario.calls) {
            const request: CompletionRequest = { provider: 'openai', model: 'm', messages: [{ role: 'user', content: call.text }], max_tokens: call.maxTokens };
            uses.set(request, call.used);
            await provider.complete(request, { role: 'agent', scenario_id: `s${index}`, turn: 1 });
          }
        } catch (error) {
          if (!isProviderError(error) || error.kind !== 'budget') throw error;
        } finally {
          account.close();
        }
      }),
    ),
  );
  return { tracker, charged: charged.usd };
}

const scenarioArbitrary = fc.record({
  calls: fc.array(fc.record({ maxTokens: fc.integer({ min: 1, max: 4000 }), text: fc.string({ maxLength: 400 }), used: fc.double({ min: 0, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 6 }),
});

describe('budget reservations', () => {
  it('for random scenario costs, concurrency and shard counts, the shards together never spend more than the budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(scenarioArbitrary, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.double({ min: 0, max: 0.05, noNaN: true }),
        fc.record({ input: fc.double({ min: 0, max: 20, noNaN: true }), output: fc.double({ min: 0, max: 80, noNaN: true }) }),
        async (scenarios, concurrency, shards, budgetUsd, price) => {
          const pricing = { m: price };
          // Scenarios dealt round-robin to the shards, each held to its share (budget / N) as `--shard I/N` does.
          const runs = await Promise.all(
            Array.from({ length: shards }, (_, index) => {
              const limit = shardBudget(budgetUsd, { index: index + 1, total: shards }, false)!;
              return runShard(
                scenarios.filter((_, position) => position % shards === index),
                limit.limitUsd,
                concurrency,
                pricing,
              );
            }),
          );
          const charged = runs.reduce((sum, run) => sum + run.charged, 0);
          const counted = runs.reduce((sum, run) => sum + run.tracker.spentUsd, 0);
          expect(counted).toBeCloseTo(charged, 9);
          if (charged > budgetUsd + 1e-12) throw new Error(`the shards spent $${charged} of a $${budgetUsd} budget`);
          for (const run of runs) expect(run.tracker.heldUsd).toBeCloseTo(0, 9); // every reservation released
        },
      ),
      { numRuns: 200 },
    );
  });

  it('holds a worst case that bounds what the call can cost: every byte sent a token, the whole max_tokens answered', () => {
    const request: CompletionRequest = { provider: 'openai', model: 'm', messages: [{ role: 'user', content: 'Habari' }], max_tokens: 100 };
    const bytes = Buffer.byteLength(JSON.stringify({ messages: request.messages }), 'utf8');
    expect(callWorstCaseUsd(request, { m: { input: 1, output: 10 } })).toBeCloseTo((bytes * 1 + 100 * 10) / 1e6, 12);
    expect(callWorstCaseUsd(request, {})).toBeNull();
  });
});
