import { resolve } from 'node:path';
import { PROVIDER_KINDS, type ConfigIssue, type ToolDefinition } from '@parley/core';
import { parseConfigText, readTextFile, withoutByteOrderMark, type ParsedConfigFile } from './config-file.js';
import type { PromptAgentConfig, SuiteFile } from './suite-schema.js';
import { ToolsFileSchema } from './tools-file-schema.js';

export interface AgentFiles {
  /** Tool definitions per prompt agent (an empty list when the agent has no tools file). */
  agentTools: Record<string, ToolDefinition[]>;
  /** System prompt per prompt agent that names one. */
  agentPrompts: Record<string, { file: string; text: string }>;
  issues: ConfigIssue[];
}

/** The name of a prompt agent's state tool when `state_tool` does not give one. */
export const DEFAULT_STATE_TOOL = 'report_state';

const PROMPT_AGENT_KINDS: ReadonlySet<string> = new Set(PROVIDER_KINDS);

export function isPromptAgent(agent: SuiteFile['agents'][string]): agent is PromptAgentConfig {
  return PROMPT_AGENT_KINDS.has(agent.kind);
}

/**
 * Read the system prompt and tools file of every prompt agent, relative to the suite folder.
 * A missing or unreadable file is reported at its entry in parley.yaml; problems inside a tools
 * file are reported at their place in that file.
 *
 * Prompt text has CRLF line ends turned into LF: the prompt is part of every recorded request's
 * key, and a Windows checkout must replay recordings made elsewhere.
 */
export function loadAgentFiles(suiteDir: string, suite: ParsedConfigFile<SuiteFile>, config: SuiteFile): AgentFiles {
  const result: AgentFiles = { agentTools: {}, agentPrompts: {}, issues: [] };
  for (const [name, agent] of Object.entries(config.agents)) {
    if (!isPromptAgent(agent)) continue;
    result.agentTools[name] = [];
    if (agent.system_prompt !== undefined) {
      const file = resolve(suiteDir, agent.system_prompt);
      const text = readTextFile(file);
      if (typeof text === 'string') {
        result.agentPrompts[name] = { file, text: withoutByteOrderMark(text).replaceAll('\r\n', '\n') };
      } else {
        result.issues.push(suite.issueAt(['agents', name, 'system_prompt'], `system prompt "${agent.system_prompt}": ${text.problem}`));
      }
    }
    if (agent.tools !== undefined) {
      const file = resolve(suiteDir, agent.tools);
      const text = readTextFile(file);
      if (typeof text !== 'string') {
        result.issues.push(suite.issueAt(['agents', name, 'tools'], `tools file "${agent.tools}": ${text.problem}`));
        continue;
      }
      const tools = parseConfigText(text, file, ToolsFileSchema, { format: 'json' });
      result.issues.push(...tools.issues);
      if (tools.data !== undefined) result.agentTools[name] = tools.data;
      const stateTool = agent.state_tool === undefined ? undefined : agent.state_tool === true ? DEFAULT_STATE_TOOL : (agent.state_tool.name ?? DEFAULT_STATE_TOOL);
      if (stateTool !== undefined && tools.data?.some((tool) => tool.name === stateTool)) {
        result.issues.push(suite.issueAt(['agents', name, 'state_tool'], `the state tool "${stateTool}" has the name of a tool in "${agent.tools}": give state_tool another name`));
      }
    }
  }
  return result;
}
