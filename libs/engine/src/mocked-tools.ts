import type { ToolCall } from '@parley/core';
import type { ScenarioFile } from '@parley/config';

export interface ToolAnswer {
  content: string;
  mocked: boolean;
}

/**
 * The answer the agent gets for a tool call: the scenario's mocked `returns` as JSON, its mocked
 * `error`, or — for a tool the scenario did not mock — an error message, so the agent has to cope
 * the way it would with a failing backend and the transcript shows the unmocked call.
 */
export function answerToolCall(call: ToolCall, scenario: ScenarioFile): ToolAnswer {
  const mock = scenario.tools[call.name];
  if (!mock) {
    return {
      content: JSON.stringify({ error: `tool "${call.name}" is not available in this test (no mock in scenario ${scenario.id})` }),
      mocked: false,
    };
  }
  if ('error' in mock) return { content: JSON.stringify({ error: mock.error }), mocked: true };
  return { content: JSON.stringify(mock.returns ?? null), mocked: true };
}
