import type { Random } from '@parley/core';

export interface ScenarioSession {
  run_id: string;
  scenario_id: string;
  /** A fresh thread/conversation id per scenario: nothing is shared between scenarios. */
  conversation_id: string;
  /** `test_tenant_<scenario_id>_<8 hex>` exported as PARLEY_TENANT to the isolation hooks (docs/file-formats.md §1) so each scenario's data can be told apart and swept. */
  tenant: string;
}

export function newSession(runId: string, scenarioId: string, random: Random): ScenarioSession {
  return {
    run_id: runId,
    scenario_id: scenarioId,
    conversation_id: `conv_${random.hex(16)}`,
    tenant: `test_tenant_${scenarioId}_${random.hex(8)}`,
  };
}
