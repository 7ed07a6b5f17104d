import type { ScenarioResult } from '@parley/core';
import { openStore, type Store } from '@parley/store';
import type { TuiServices } from '../../tui-context.js';
import { messageOf, type TriageFacts } from './triage-facts.js';

/** What every triage action of one scenario is given: the facts it acts on and how it reports back. */
export interface ActionContext {
  services: TuiServices;
  runId: string;
  result: ScenarioResult;
  facts: TriageFacts;
  /** Sets the status line (ignored once the screen is gone). */
  say(text: string): void;
  /** Reads the facts again (after an action changed them). */
  reload(): void;
  /** A path as the status line shows it: relative to the suite's folder. */
  shown(file: string): string;
  /** True while the screen is still mounted. */
  isMounted(): boolean;
  /** Blocks keys while an action holds the terminal or waits (a send, the editor). */
  setBusy(busy: boolean): void;
}

/** Runs a write on the store (opened for it, closed after); false, with the reason said, when it failed. */
export function withStore(context: ActionContext, action: (store: Store) => unknown): boolean {
  try {
    const store = openStore(context.services.storePath);
    try {
      action(store);
    } finally {
      store.close();
    }
    return true;
  } catch (error) {
    context.say(`cannot write the run history: ${messageOf(error)}`);
    return false;
  }
}
