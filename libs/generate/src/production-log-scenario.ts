import type { ScenarioFile } from '@parley/config';
import { promotedScenario, PROMOTED_TAG, type LoggedConversation } from '@parley/production';
import type { Redactor } from '@parley/redaction';
import { DATASET_TAG, type DatasetScenario } from './sgd-scenario.js';

/**
 * A scripted scenario from a production conversation, masked exactly as `parley promote` masks
 * (the same function, with no feedback): the user's turns as `user.opening`/`user.script`, the
 * tool results the agent got as mocks, and the agent's (masked) replies as `reference.replies`.
 * Unlike promote it takes every conversation, not only those with negative feedback, and writes
 * no recording. The id is promote's (`prod_` + hash of the conversation id), so promoting the same
 * conversation later finds it and skips.
 */
export function productionLogScenario(
  conversation: LoggedConversation,
  input: { agent: string; redactor: Redactor; now: Date },
): DatasetScenario | { problem: string } {
  const built = promotedScenario({ conversation, feedback: [], agent: input.agent, redactor: input.redactor, now: input.now });
  if ('problem' in built) return built;
  const { feedback: _feedback, ...reference } = built.scenario.reference ?? { replies: [] };
  const scenario: ScenarioFile = {
    ...built.scenario,
    title: `Production conversation ${built.scenario.id}${built.scenario.language !== undefined ? ` (${built.scenario.language})` : ''}`,
    tags: [DATASET_TAG, PROMOTED_TAG],
    reference,
  };
  const header = [
    `Drafted by \`parley generate --from-dataset\` from a production conversation on ${input.now.toISOString().slice(0, 10)}.`,
    "Masked with the suite's redactor: review it, add expectations, record it, then make it blocking.",
    ...built.notes,
  ].join('\n');
  return { scenario, header };
}
