/** Decides whether a rule's `when` conditions hold for a normalised request. */
import type { NormalisedMessage, NormalisedRequest } from './normalise-request.js';
import type { RuleCondition } from './script-schema.js';
import { parseTextPattern, patternMatches, type LiteralMode, type TextPattern } from './text-pattern.js';

/**
 * True when every condition that is given holds; a rule without `when` matches every request.
 *
 * @example ruleMatches({ api: 'openai', last_user: '/habari/i' }, request)
 */
export function ruleMatches(condition: RuleCondition | undefined, request: NormalisedRequest): boolean {
  if (!condition) return true;
  const lastMessage = request.messages.at(-1);
  const checks: Array<() => boolean> = [
    () => condition.api === undefined || condition.api === request.api,
    () => condition.model === undefined || matches(condition.model, request.model, 'exact'),
    () => condition.system === undefined || matches(condition.system, request.system, 'substring'),
    () => condition.last_user === undefined || lastUserMatches(condition.last_user, request.messages),
    () => condition.last_message_role === undefined || lastMessage?.role === condition.last_message_role,
    () => condition.last_tool === undefined || trailingToolNames(request.messages).includes(condition.last_tool),
    () =>
      condition.any_message === undefined ||
      request.messages.some((message) => matches(condition.any_message ?? '', searchableText(message), 'substring')),
    () => condition.message_count === undefined || request.messages.length === condition.message_count,
    () =>
      condition.header === undefined ||
      Object.entries(condition.header).every(([name, expected]) => {
        const actual = request.headers[name.toLowerCase()];
        return actual !== undefined && matches(expected, actual, 'exact');
      }),
  ];
  return checks.every((check) => check());
}

function lastUserMatches(pattern: string, messages: NormalisedMessage[]): boolean {
  const lastUser = messages.findLast((message) => message.role === 'user');
  return lastUser !== undefined && matches(pattern, lastUser.content, 'substring');
}

/**
 * Tool names of the results at the end of the conversation. OpenAI sends one `tool` message per
 * result where Anthropic sends one message with several results, so the whole trailing run counts:
 * `last_tool` then means the same thing for both APIs.
 */
function trailingToolNames(messages: NormalisedMessage[]): string[] {
  const names: string[] = [];
  for (let index = messages.length - 1; index >= 0 && messages[index]?.role === 'tool'; index -= 1) {
    names.push(...(messages[index]?.toolNames ?? []));
  }
  return names;
}

/** A message's text plus its tool calls' arguments, so ids the agent passed to a tool can be found. */
function searchableText(message: NormalisedMessage): string {
  return [message.content, ...message.toolCalls.map((call) => call.arguments)].join('\n');
}

const compiledPatterns = new Map<string, TextPattern>();

/** Patterns were validated when the script was loaded; compiling each once keeps matching cheap. */
function matches(pattern: string, text: string, literalMode: LiteralMode): boolean {
  let compiled = compiledPatterns.get(pattern);
  if (!compiled) {
    compiled = parseTextPattern(pattern);
    compiledPatterns.set(pattern, compiled);
  }
  return patternMatches(compiled, text, literalMode);
}
