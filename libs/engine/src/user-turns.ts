import type { ScenarioFile } from '@parley/config';

/** The fixed user turns of a scenario, in order: the opening, then the script. */
export function scriptedUserTurns(scenario: ScenarioFile): string[] {
  return [...(scenario.user.opening !== undefined ? [scenario.user.opening] : []), ...scenario.user.script];
}
