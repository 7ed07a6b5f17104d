import { readFileSync } from 'node:fs';
import type { ConfigIssue } from '@parley/core';
import type { SuiteFile } from './suite-schema.js';
import { parseYamlSource, type DataPath } from './yaml-source.js';

/** `${NAME}` or `${NAME:-default}` in a service agent's url, headers and env values. */
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * The environment variables the suite's service agents need and that are not set: each `${NAME}`
 * without a `:-default` in an http agent's `url` or `headers`, or a command agent's `env`, as an
 * error at its place in parley.yaml. A run that talks to the agents cannot start without them, so
 * they are configuration errors (exit 2), found by `parley validate` before any run.
 */
export function missingEnvironmentIssues(suite: { file: string; config: SuiteFile }, env: Readonly<Record<string, string | undefined>>): ConfigIssue[] {
  const places: Array<{ path: DataPath; text: string }> = [];
  for (const [name, agent] of Object.entries(suite.config.agents)) {
    if (agent.kind === 'http') {
      places.push({ path: ['agents', name, 'url'], text: agent.url });
      for (const [header, value] of Object.entries(agent.headers ?? {})) places.push({ path: ['agents', name, 'headers', header], text: value });
    } else if (agent.kind === 'command') {
      for (const [variable, value] of Object.entries(agent.env ?? {})) places.push({ path: ['agents', name, 'env', variable], text: value });
    }
  }
  const missing = places.flatMap(({ path, text }) =>
    [...text.matchAll(ENV_REFERENCE)].filter((match) => match[2] === undefined && env[match[1] as string] === undefined).map((match) => ({ path, name: match[1] as string })),
  );
  if (missing.length === 0) return [];
  const source = parseYamlSource(readFileSync(suite.file, 'utf8'), suite.file);
  return missing.map(({ path, name }) => ({
    file: suite.file,
    ...source.locate(path),
    // A URL gets a URL as the example default; a header or a command's variable (a token, most
    // often) gets none: a made-up default for a secret would only hide that it is missing.
    message:
      path[2] === 'url'
        ? `\${${name}} is not set in the environment: set ${name} before running, or give a default: \${${name}:-http://127.0.0.1:8787}`
        : `\${${name}} is not set in the environment: set ${name} before running (or give a default: \${${name}:-value})`,
    severity: 'error' as const,
  }));
}

/** Replaces `${NAME}` and `${NAME:-default}` from the environment; an unset variable without a default throws. */
export function interpolateEnvironment(text: string, env: Readonly<Record<string, string | undefined>>, fail: (name: string) => Error): string {
  return text.replace(ENV_REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    if (value !== undefined) return value;
    throw fail(name);
  });
}
