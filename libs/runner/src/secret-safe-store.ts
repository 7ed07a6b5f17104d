import type { Redactor } from '@parley/redaction';
import { redactResultContent } from '@parley/reports';
import type { Store } from '@parley/store';

/**
 * The run's store with credentials masked in every result it saves (an API key must never reach
 * any file a run writes, `.parley/parley.db` included: see docs/privacy.md). Only secrets are masked: the store keeps
 * transcripts and tool arguments for triage. Every other method is the store's own, so methods
 * added to the store later pass through unchanged.
 */
export function secretSafeStore(store: Store, secrets: Redactor): Store {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'saveScenarioResult') {
        const save: Store['saveScenarioResult'] = (runId, result, attempt) =>
          target.saveScenarioResult(runId, redactResultContent(result, secrets), attempt);
        return save;
      }
      if (property === 'saveScenarioResults') {
        const saveAll: Store['saveScenarioResults'] = (runId, results) =>
          target.saveScenarioResults(runId, results.map((result) => redactResultContent(result, secrets)));
        return saveAll;
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
