import type { ToolCall, ToolDefinition } from '@parley/core';
import { DEFAULT_STATE_TOOL, type PromptAgentConfig } from '@parley/config';

/**
 * The tool a prompt agent reports its conversation state with (`state_tool` in parley.yaml), so
 * that `state_path` can check a prompt agent's FSM transitions as it checks a service agent's
 * reported `state`. Parley answers the call itself; the call and its answer stay out of the
 * transcript (tool_correctness never sees them), and the state goes on the assistant message
 * that reported it.
 */
export interface StateTool {
  name: string;
  definition: ToolDefinition;
  /** The state a call reports, or why it is refused (sent back to the agent as the tool's answer). */
  read(call: ToolCall): { state: string } | { problem: string };
}

/** The agent's state tool, or undefined when `state_tool` is not set. */
export function stateToolOf(agent: PromptAgentConfig): StateTool | undefined {
  const option = agent.state_tool;
  if (option === undefined) return undefined;
  const name = option === true ? DEFAULT_STATE_TOOL : (option.name ?? DEFAULT_STATE_TOOL);
  const states = option === true ? undefined : option.states;
  const definition: ToolDefinition = {
    name,
    description:
      'Report the state of the conversation you are in now (your workflow state), whenever it changes. Call it alongside your other tools or before you answer; it returns {"ok": true}.',
    parameters: {
      type: 'object',
      properties: { state: { type: 'string', ...(states ? { enum: states } : {}), description: 'The current state.' } },
      required: ['state'],
      additionalProperties: false,
    },
  };
  return {
    name,
    definition,
    read(call) {
      const state = call.args['state'];
      if (typeof state !== 'string' || state === '') return { problem: 'state must be a non-empty string' };
      if (states && !states.includes(state)) return { problem: `state must be one of ${states.join(', ')}` };
      return { state };
    },
  };
}
