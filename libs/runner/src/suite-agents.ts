import { isConfigError } from '@parley/core';
import { isPromptAgent, loadSuite, type AgentConfig } from '@parley/config';
import { useSuiteStoreSetting } from '@parley/store';
import { metricParamSchemas } from './metric-catalog.js';

/** Prompt agents are a model plus a prompt Parley calls itself; services are called over http, a command or a module. */
export type AgentFamily = 'prompt' | 'service';

/** One testable of a suite (the agent index lists prompts and services alike, see docs/tui.md). */
export interface SuiteAgent {
  name: string;
  kind: AgentConfig['kind'];
  family: AgentFamily;
  /** Scenarios whose `agent:` is this one. */
  scenarios: number;
  /** Every tag of those scenarios, sorted. */
  tags: string[];
}

export interface SuiteAgents {
  /** `suite:` of parley.yaml: the name its runs are stored under. */
  suite: string;
  /** Absolute path of parley.yaml. */
  file: string;
  /** Sorted by name. */
  agents: SuiteAgent[];
}

export type SuiteAgentsResult = { ok: true; value: SuiteAgents } | { ok: false; error: string };

/**
 * The agents of the suite at `suitePath` (folder or parley.yaml) with their scenario counts and
 * tags, loaded with the same loader as `parley run`. A suite that does not load is a value
 * carrying the loader's message (file:line:column), never a throw: the caller still has the
 * run history to show.
 *
 * @example
 * const result = loadSuiteAgents('examples/booking');
 * if (result.ok) for (const agent of result.value.agents) console.log(agent.name, agent.kind, agent.scenarios);
 */
export function loadSuiteAgents(suitePath: string): SuiteAgentsResult {
  let suite: ReturnType<typeof loadSuite>;
  try {
    suite = loadSuite(suitePath, { metricParams: metricParamSchemas() });
  } catch (error) {
    if (isConfigError(error)) return { ok: false, error: error.message };
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  useSuiteStoreSetting(suite.config.settings?.store);
  const agents = Object.entries(suite.config.agents)
    .map(([name, config]): SuiteAgent => {
      const scenarios = suite.scenarios.filter((scenario) => scenario.data.agent === name);
      return {
        name,
        kind: config.kind,
        family: isPromptAgent(config) ? 'prompt' : 'service',
        scenarios: scenarios.length,
        tags: [...new Set(scenarios.flatMap((scenario) => scenario.data.tags))].sort(),
      };
    })
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  return { ok: true, value: { suite: suite.config.suite, file: suite.file, agents } };
}
