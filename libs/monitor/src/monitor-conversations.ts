import { openMonitorStore } from '@parley/store';
import { alertWindows } from './alert-windows.js';
import { judgeConversations } from './judge-conversations.js';
import type { MonitorInput, MonitorOutcome } from './monitor-outcome.js';
import { monitorSetup, planMonitoring } from './plan-monitoring.js';
import { deliverPendingScores, type ScoreDelivery } from './send-scores.js';

/**
 * `parley monitor` (docs/production.md, "Online sampling"), as its phases: deliver (scores an earlier run left
 * in the outbox, when Langfuse is given) → plan (mask the sampled conversations not judged before,
 * refuse restricted verticals, estimate) → judge (and store each judged conversation, its Langfuse
 * scores in the outbox in the same transaction) → send (the outbox) → alert (the window against the
 * previous ones). A dry run stops after the plan: no call, nothing stored. An interrupted run (input.signal)
 * starts no call after the signal, saves and sends what was judged, and exits 130 / 143.
 */
export async function monitorConversations(input: MonitorInput): Promise<MonitorOutcome> {
  const setup = monitorSetup(input);
  const store = openMonitorStore(input.storePath);
  try {
    const plan = planMonitoring(input, setup, store.judgedAmong(setup.suiteName, input.conversations.map(({ value }) => value.conversation_id)));
    if (input.dryRun) {
      return { ...plan.outcome, judged: [], skipped_for_budget: [], not_judged: [], left_to_others: [], interrupted: null, spent_usd: 0, cached_input_tokens: 0, cache_saving_usd: 0, pushed_scores: 0, undelivered_scores: 0, delivery_error: null, batch: null, windows: [], alerts: [], exit_code: 0 };
    }
    // What an earlier run judged and could not deliver (killed, Langfuse down) goes first.
    const earlier = input.langfuse ? await deliverPendingScores(input.langfuse, input.storePath, input.clock, input.langfuseOptions) : undefined;
    const judged = await judgeConversations(input, setup, plan, store);
    // Langfuse failing before judging is not asked again after it: the new scores wait in the outbox too.
    const now = input.langfuse && earlier?.error === null ? await deliverPendingScores(input.langfuse, input.storePath, input.clock, input.langfuseOptions) : undefined;
    const delivery: ScoreDelivery | undefined = now ?? earlier;
    const { windows, alerts } = alertWindows(input, setup, plan, store);
    const interrupted = input.signal?.aborted ? (input.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT') : null;
    return {
      ...plan.outcome,
      judged: judged.judged,
      skipped_for_budget: judged.skipped_for_budget,
      not_judged: judged.not_judged,
      left_to_others: judged.left_to_others,
      interrupted,
      spent_usd: judged.spend.usd,
      cached_input_tokens: judged.spend.cachedInputTokens,
      cache_saving_usd: judged.spend.cacheSavingUsd,
      pushed_scores: (earlier?.sent ?? 0) + (now?.sent ?? 0),
      undelivered_scores: delivery?.pending ?? 0,
      delivery_error: delivery?.error ?? null,
      batch: judged.batch,
      windows,
      alerts,
      // Scores Langfuse did not take fail the run as an export does (exit 1); they stay in the outbox.
      exit_code: interrupted === 'SIGTERM' ? 143 : interrupted === 'SIGINT' ? 130 : alerts.length > 0 || delivery?.error ? 1 : 0,
    };
  } finally {
    store.close();
  }
}
