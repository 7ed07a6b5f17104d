import type { ToolCall } from '@parley/core';
import { interpolateEnvironment } from '@parley/config';

/** What Parley knows when it sends one user turn to a service agent (docs/file-formats.md, "Suite"). */
export interface WireVariables {
  conversation_id: string;
  tenant: string;
  scenario_id: string;
  run_id: string;
  turn: number;
  message: string;
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
}

/** The default body sent to `http` and `command` agents (docs/file-formats.md, "Suite"). */
export function defaultWireRequest(variables: WireVariables): Record<string, unknown> {
  return {
    conversation_id: variables.conversation_id,
    tenant: variables.tenant,
    scenario_id: variables.scenario_id,
    turn: variables.turn,
    message: variables.message,
    history: variables.history,
  };
}

const WHOLE_PLACEHOLDER = /^\{\{\s*([a-z_]+)\s*\}\}$/;
const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/**
 * The body of an agent's `request:` template: a string that is only `{{name}}` becomes the value
 * itself (so `"{{history}}"` is the list), `{{name}}` inside a longer string becomes its text.
 * Names: conversation_id, tenant, scenario_id, run_id, turn, message, history.
 *
 * @example renderWireRequest({ q: '{{message}}', ctx: { id: '{{conversation_id}}' } }, vars)
 */
export function renderWireRequest(template: unknown, variables: WireVariables): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(template);
    if (whole) return variableValue(whole[1]!, variables, template);
    return template.replace(PLACEHOLDER, (_match, name: string) => {
      const value = variableValue(name, variables, template);
      return typeof value === 'string' ? value : JSON.stringify(value);
    });
  }
  if (Array.isArray(template)) return template.map((item) => renderWireRequest(item, variables));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, renderWireRequest(value, variables)]));
  }
  return template;
}

function variableValue(name: string, variables: WireVariables, template: string): unknown {
  if (!Object.hasOwn(variables, name)) {
    throw new WireFormatError(`request template "${template}" names {{${name}}}; known: ${Object.keys(variables).join(', ')}`);
  }
  return variables[name as keyof WireVariables];
}

/**
 * `${NAME}` in header values (and URLs) from the environment, `${NAME:-default}` with a default
 * for an unset (or empty) variable; an unset variable without one is an error, not an empty string.
 */
export function interpolateEnv(text: string, env: NodeJS.ProcessEnv): string {
  return interpolateEnvironment(text, env, (name) => new WireFormatError(`\${${name}} is not set in the environment`));
}

/** A service agent's answer in Parley's terms. */
export interface WireReply {
  reply: string;
  tool_calls: ToolCall[];
  state?: string;
}

/** Where the reply's parts are in the agent's response (`response:` of an http/command agent). */
export interface ResponseMapping {
  reply?: string;
  tool_calls?: string;
  state?: string;
}

export const RESPONSE_MAPPING_FIELDS = ['reply', 'tool_calls', 'state'] as const;

/**
 * Reads a reply out of a parsed response with the mapping's paths (`data.answer`,
 * `choices[0].message.content`, `$.x`); the defaults are the documented `reply`, `tool_calls`, `state`.
 * Tool calls may carry `args`, `arguments` (an object or a JSON string) or `input`.
 */
export function readWireReply(body: unknown, mapping: ResponseMapping = {}): WireReply {
  const replyPath = mapping.reply ?? 'reply';
  const reply = valueAtPath(body, replyPath);
  if (typeof reply !== 'string') {
    throw new WireFormatError(`the agent's answer has no text at "${replyPath}" (found ${describe(reply)})`);
  }
  const callsPath = mapping.tool_calls ?? 'tool_calls';
  const rawCalls = valueAtPath(body, callsPath);
  if (rawCalls !== undefined && rawCalls !== null && !Array.isArray(rawCalls)) {
    throw new WireFormatError(`the agent's "${callsPath}" is not a list (found ${describe(rawCalls)})`);
  }
  const statePath = mapping.state ?? 'state';
  const state = valueAtPath(body, statePath);
  return {
    reply,
    tool_calls: (rawCalls ?? []).map((call, index) => toToolCall(call, `${callsPath}[${index}]`)),
    ...(state !== undefined && state !== null ? { state: typeof state === 'string' ? state : JSON.stringify(state) } : {}),
  };
}

function toToolCall(value: unknown, where: string): ToolCall {
  if (value === null || typeof value !== 'object' || typeof (value as { name?: unknown }).name !== 'string') {
    throw new WireFormatError(`${where} is not a tool call with a "name" (found ${describe(value)})`);
  }
  const record = value as Record<string, unknown>;
  let args: unknown = record.args ?? record.arguments ?? record.input ?? {};
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args) as unknown;
    } catch {
      args = { _unparsed_arguments: args };
    }
  }
  const argsRecord = args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : { _value: args };
  return { name: record.name as string, args: argsRecord };
}

/** The value at a dotted path (`a.b.0.c`, `a.b[0].c`, optional leading `$.`), or undefined. */
export function valueAtPath(value: unknown, path: string): unknown {
  const segments = path
    .replace(/^\$\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((segment) => segment !== '');
  let current = value;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** A request template or a response that does not fit the mapping. */
export class WireFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireFormatError';
  }
}
