import { withStore, type ActionContext } from './action-context.js';

/**
 * `f`: removes the scenario's flaky mark, or asks for the note of a new one (`askNote`). The mark
 * is the store's (reports of the suite show it); this only says what happened.
 */
export function toggleFlaky(context: ActionContext, askNote: () => void): void {
  const { run, flakyMark, problem } = context.facts;
  if (run === undefined) return context.say(`cannot mark flaky: ${problem ?? 'no run'}`);
  if (flakyMark !== undefined) {
    if (withStore(context, (store) => store.unmarkFlaky(run.suite, context.result.scenario_id))) context.say('flaky mark removed');
    return context.reload();
  }
  askNote();
}

/** Marks the scenario flaky with the note typed (trimmed; may be empty). */
export function markFlaky(context: ActionContext, note: string): void {
  const { run } = context.facts;
  if (run === undefined) return;
  const markedAt = context.services.clock.now().toISOString();
  const marked = withStore(context, (store) =>
    store.markFlaky({ suite: run.suite, scenario_id: context.result.scenario_id, run_id: context.runId, marked_at: markedAt, note: note.trim() }),
  );
  if (marked) context.say(`marked flaky on ${markedAt.slice(0, 10)}: reports of ${run.suite} show it`);
  context.reload();
}
