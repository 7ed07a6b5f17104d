import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isPromptAgent, type LoadedSuite } from '@parley/config';
import { resolveInSuite } from './suite-paths.js';

/** The files of the suite that make an agent behave as it does. */
interface AgentFiles {
  /** The file that versions the agent for the judge cache: the system prompt, the module, or the command's script. */
  main: string | undefined;
  /** Every such file (a prompt agent's tools too): a change to any reruns the agent's scenarios under `--changed-since`. */
  all: string[];
}

/**
 * A prompt agent's system prompt and tools, a module agent's module, and the arguments of a
 * command agent that name existing files (`["python3", "agent.py"]`: the script). http agents
 * have none: their code is not in the suite.
 */
export function agentFiles(suite: LoadedSuite, name: string): AgentFiles {
  const agent = suite.config.agents[name];
  if (agent === undefined) return { main: undefined, all: [] };
  if (isPromptAgent(agent)) {
    const prompt = agent.system_prompt !== undefined ? resolveInSuite(suite, agent.system_prompt) : undefined;
    const tools = agent.tools !== undefined ? resolveInSuite(suite, agent.tools) : undefined;
    return { main: prompt, all: [prompt, tools].filter((path): path is string => path !== undefined) };
  }
  if (agent.kind === 'module') {
    const module = resolveInSuite(suite, agent.module);
    return { main: module, all: [module] };
  }
  if (agent.kind === 'command') {
    const cwd = resolveInSuite(suite, agent.cwd ?? '.');
    const scripts = agent.command.slice(1).map((argument) => (isAbsolute(argument) ? argument : resolve(cwd, argument))).filter((path) => existsSync(path));
    return { main: scripts[0], all: scripts };
  }
  return { main: undefined, all: [] };
}
