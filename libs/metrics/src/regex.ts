import * as z from 'zod';
import { assistantMessagesOf, describeMessage, describeScope, emptyTurnReason, locationOf } from './assistant-messages.js';
import { defineMetric } from './define-metric.js';
import type { Metric, MetricIdentity } from './metric.js';
import { unevaluableResult, verdictResult } from './metric-result.js';
import { countOf } from './reason-list.js';

/** The compiled pattern, or the engine's own words for why it does not compile. */
function compilePattern(pattern: string, flags = ''): { regex: RegExp } | { error: string } {
  try {
    return { regex: new RegExp(pattern, flags) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

export const RegexParamsSchema = z
  .strictObject({
    pattern: z.string().min(1),
    flags: z.string().optional(),
    turn: z.number().int().positive().optional(),
    match: z.enum(['any', 'all', 'none']).optional(),
  })
  // A bad pattern is a mistake in the scenario file, so validation reports it before any run.
  .superRefine((params, context) => {
    const compiled = compilePattern(params.pattern, params.flags);
    if ('error' in compiled) context.addIssue({ code: 'custom', path: ['pattern'], message: compiled.error });
  });
export type RegexParams = z.infer<typeof RegexParamsSchema>;

const IDENTITY: MetricIdentity = { name: 'regex', version: '1.0.0' };

/**
 * `regex`: a pattern over the assistant messages (all of them or those of one turn); `any` (the
 * default) needs one matching message, `all` needs every message to match, `none` needs none.
 */
export const regexMetric: Metric<RegexParams> = defineMetric({
  ...IDENTITY,
  kind: 'deterministic',
  params: RegexParamsSchema,
  defaultThreshold: null,
  evaluate(input, params) {
    const compiled = compilePattern(params.pattern, params.flags);
    if ('error' in compiled) return unevaluableResult(IDENTITY, `regex could not be evaluated: ${compiled.error}`);
    const { regex } = compiled;
    const mode = params.match ?? 'any';
    const messages = assistantMessagesOf(input.transcript, params.turn);
    if (params.turn !== undefined && messages.length === 0) {
      return verdictResult(IDENTITY, false, emptyTurnReason(input.transcript, params.turn), { matched: [], messages_checked: 0 });
    }
    const results = messages.map((message) => {
      regex.lastIndex = 0; // `g` and `y` make a RegExp remember where it stopped
      return { message, found: regex.exec(message.content)?.[0] ?? null };
    });
    const matched = results.filter((result) => result.found !== null);
    const unmatched = results.filter((result) => result.found === null);
    const details = {
      match: mode,
      matched: matched.map(({ message, found }) => ({ ...locationOf(message), text: found })),
      messages_checked: messages.length,
    };
    const shown = String(regex);
    const scope = describeScope(params.turn);
    const firstMatched = matched[0];
    const firstUnmatched = unmatched[0];

    if (mode === 'any') {
      return firstMatched !== undefined
        ? verdictResult(IDENTITY, true, `${shown} matched ${describeMessage(firstMatched.message)}`, details)
        : verdictResult(IDENTITY, false, `${shown} matched none of ${scope} (${countOf(messages.length, 'message')})`, details);
    }
    if (mode === 'all') {
      if (messages.length === 0) return verdictResult(IDENTITY, false, `${shown} had no assistant message to match`, details);
      return firstUnmatched !== undefined
        ? verdictResult(IDENTITY, false, `${shown} did not match ${describeMessage(firstUnmatched.message)}${more(unmatched.length)}`, details)
        : verdictResult(IDENTITY, true, `${shown} matched all ${countOf(messages.length, 'assistant message')}`, details);
    }
    return firstMatched !== undefined
      ? verdictResult(IDENTITY, false, `${shown} matched ${describeMessage(firstMatched.message)}: ${JSON.stringify(firstMatched.found)}${more(matched.length)}`, details)
      : verdictResult(IDENTITY, true, `${shown} matched none of ${scope} (${countOf(messages.length, 'message')})`, details);
  },
});

function more(count: number): string {
  return count > 1 ? ` (and ${count - 1} more)` : '';
}
