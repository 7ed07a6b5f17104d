import type { KappaCell } from './kappa/kappa-cell-route.js';

/** Every screen of the TUI, with what it needs to open. */
export type Route =
  | { screen: 'index' }
  | { screen: 'runs'; agent?: string }
  | { screen: 'run'; runId: string }
  | { screen: 'scenario'; runId: string; scenarioId: string }
  | { screen: 'rerun'; runId: string; scenarioId: string }
  | { screen: 'rate' }
  | { screen: 'kappa' }
  | { screen: 'kappa-cell'; cell: KappaCell }
  | { screen: 'live' };
