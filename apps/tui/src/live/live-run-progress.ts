import type { RunEvent, RunMode, ScenarioResult, Status } from '@parley/core';
import { countStatuses, statusSeverity, triageOrder } from '@parley/gate';

/** Where one scenario of the run is. */
export type ScenarioProgress =
  | { id: string; state: 'waiting' }
  /** `turn`: the user turn the conversation has reached; `spentUsd`: its calls so far (null: some unpriced). */
  | { id: string; state: 'running'; turn: number; spentUsd: number | null }
  | { id: string; state: 'finished'; result: ScenarioResult };

/** What a run's events have said so far, for the live run view. Each event costs O(1). */
export class LiveRunProgress {
  runId: string | undefined;
  suite: string | undefined;
  mode: RunMode | undefined;
  private readonly scenarios = new Map<string, ScenarioProgress>();
  /** Run order (the order the runner will start them in). */
  private readonly order: string[] = [];
  /** Ids in the order they finished. */
  private readonly finishedIds: string[] = [];
  private readonly failureIds: string[] = [];
  private readonly runningIds = new Set<string>();
  /** Not started yet, in run order (a Set keeps insertion order and deletes in O(1)). */
  private readonly waitingIds = new Set<string>();
  private readonly statusCounts: Record<Status, number> = countStatuses([]);
  private finishedSpend = 0;
  private unpriced = false;

  apply(event: RunEvent): void {
    switch (event.type) {
      case 'run_started':
        this.runId = event.run_id;
        this.suite = event.suite;
        this.mode = event.mode;
        for (const id of event.scenario_ids) {
          if (this.scenarios.has(id)) continue;
          this.order.push(id);
          this.waitingIds.add(id);
          this.scenarios.set(id, { id, state: 'waiting' });
        }
        break;
      case 'scenario_started':
        this.known(event.scenario_id);
        this.scenarios.set(event.scenario_id, { id: event.scenario_id, state: 'running', turn: 0, spentUsd: 0 });
        this.waitingIds.delete(event.scenario_id);
        this.runningIds.add(event.scenario_id);
        break;
      case 'turn_completed': {
        const current = this.scenarios.get(event.scenario_id);
        if (current?.state !== 'running') break;
        const cost = event.turn.cost_usd;
        const spentUsd = current.spentUsd === null || cost === null ? null : current.spentUsd + (cost ?? 0);
        this.scenarios.set(event.scenario_id, { ...current, turn: Math.max(current.turn, event.turn.turn), spentUsd });
        break;
      }
      case 'scenario_finished': {
        const { result } = event;
        this.known(result.scenario_id);
        this.runningIds.delete(result.scenario_id);
        this.waitingIds.delete(result.scenario_id);
        this.scenarios.set(result.scenario_id, { id: result.scenario_id, state: 'finished', result });
        this.finishedIds.push(result.scenario_id);
        this.statusCounts[result.status] += 1;
        if (isFailure(result.status)) this.failureIds.push(result.scenario_id);
        if (result.cost.usd === null) this.unpriced = true;
        else this.finishedSpend += result.cost.usd;
        break;
      }
      case 'run_finished':
        break;
    }
  }

  /** Scenarios the run will start, is running or has finished. */
  get total(): number {
    return this.order.length;
  }

  get finished(): number {
    return this.finishedIds.length;
  }

  get running(): number {
    return this.runningIds.size;
  }

  get waiting(): number {
    return this.total - this.finished - this.running;
  }

  /** Finished scenarios per status (every status present). */
  counts(): Record<Status, number> {
    return { ...this.statusCounts };
  }

  /**
   * Spend so far: finished scenarios' costs (judging included) plus the calls of the scenarios in
   * flight; `unpriced` when some call's model has no known price (then not counted).
   */
  spend(): { usd: number; unpriced: boolean } {
    let usd = this.finishedSpend;
    let unpriced = this.unpriced;
    for (const id of this.runningIds) {
      const current = this.scenarios.get(id);
      if (current?.state !== 'running') continue;
      if (current.spentUsd === null) unpriced = true;
      else usd += current.spentUsd;
    }
    return { usd, unpriced };
  }

  /** Failed and errored results, in the order they happened. */
  failures(): ScenarioResult[] {
    return this.failureIds.map((id) => this.resultOf(id));
  }

  /**
   * The first `limit` scenarios of the list while the run goes: running ones (in start order), then
   * the finished ones (latest first), then those still waiting (in run order). Costs O(limit), so a
   * suite of thousands redraws as fast as a small one.
   */
  liveRows(limit: number = this.total): ScenarioProgress[] {
    const rows: ScenarioProgress[] = [];
    const take = (id: string): boolean => {
      if (rows.length >= limit) return false;
      rows.push(this.scenarios.get(id)!);
      return true;
    };
    for (const id of this.runningIds) if (!take(id)) return rows;
    for (let index = this.finishedIds.length - 1; index >= 0; index -= 1) if (!take(this.finishedIds[index]!)) return rows;
    for (const id of this.waitingIds) if (!take(id)) return rows;
    return rows;
  }

  /**
   * Every scenario once the run is over: the finished ones in the order the run screen lists them
   * (`triageOrder`: most severe status first, blocking before advisory, then by id), then the ones
   * the run never finished (stopped by Ctrl-C while running, or never started).
   */
  finalRows(): ScenarioProgress[] {
    const finished = triageOrder(this.finishedIds.map((id) => this.resultOf(id))).map((result) => this.scenarios.get(result.scenario_id)!);
    const running = [...this.runningIds].map((id) => this.scenarios.get(id)!);
    const waiting = [...this.waitingIds].map((id) => this.scenarios.get(id)!);
    return [...finished, ...running, ...waiting];
  }

  private known(id: string): void {
    if (this.scenarios.has(id)) return;
    this.order.push(id);
    this.waitingIds.add(id);
    this.scenarios.set(id, { id, state: 'waiting' });
  }

  private resultOf(id: string): ScenarioResult {
    const row = this.scenarios.get(id);
    if (row?.state !== 'finished') throw new Error(`scenario ${id} has not finished`);
    return row.result;
  }
}

/** A result that goes in the failures list: it failed, or could not be evaluated. */
export function isFailure(status: Status): boolean {
  return statusSeverity(status) >= statusSeverity('fail');
}
