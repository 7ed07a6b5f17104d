import * as z from 'zod';
import { assistantMessagesOf, describeMessage, emptyTurnReason, locationOf, type LocatedMessage } from './assistant-messages.js';
import { defineMetric } from './define-metric.js';
import { parseJsonMessage } from './json-in-message.js';
import { compileJsonSchema, type SchemaViolation } from './json-schema-validator.js';
import type { Metric, MetricIdentity } from './metric.js';
import { unevaluableResult, verdictResult } from './metric-result.js';
import { countOf, listForReason } from './reason-list.js';

export const JsonSchemaParamsSchema = z.strictObject({
  // Compiling here turns a broken schema into a validation error with the scenario's location.
  schema: z.record(z.string(), z.unknown()).superRefine((schema, context) => {
    const compiled = compileJsonSchema(schema);
    if ('error' in compiled) context.addIssue({ code: 'custom', message: `invalid JSON schema: ${compiled.error}` });
  }),
  turn: z.number().int().positive().optional(),
  message: z.enum(['last', 'all']).optional(),
});
export type JsonSchemaParams = z.infer<typeof JsonSchemaParamsSchema>;

const IDENTITY: MetricIdentity = { name: 'json_schema', version: '1.0.0' };

interface MessageCheck {
  message: LocatedMessage;
  parse_error?: string;
  errors: SchemaViolation[];
}

/**
 * `json_schema`: the last assistant message (of the conversation or of `turn`), or every one with
 * `message: all`, is JSON (possibly in a ```json block) that the schema accepts.
 */
export const jsonSchemaMetric: Metric<JsonSchemaParams> = defineMetric({
  ...IDENTITY,
  kind: 'deterministic',
  params: JsonSchemaParamsSchema,
  defaultThreshold: null,
  evaluate(input, params) {
    const compiled = compileJsonSchema(params.schema);
    if ('error' in compiled) return unevaluableResult(IDENTITY, `json_schema could not be evaluated: invalid JSON schema: ${compiled.error}`);
    const messages = assistantMessagesOf(input.transcript, params.turn);
    if (messages.length === 0) {
      const reason = params.turn === undefined ? 'there is no assistant message to validate' : emptyTurnReason(input.transcript, params.turn);
      return verdictResult(IDENTITY, false, reason, { messages: [] });
    }
    const lastMessage = messages[messages.length - 1];
    const targets = params.message === 'all' || lastMessage === undefined ? messages : [lastMessage];
    const checks: MessageCheck[] = targets.map((message) => {
      const parsed = parseJsonMessage(message.content);
      if ('error' in parsed) return { message, parse_error: parsed.error, errors: [] };
      return { message, errors: compiled.validate(parsed.value) };
    });
    const details = {
      messages: checks.map((check) => ({ ...locationOf(check.message), parse_error: check.parse_error, errors: check.errors })),
    };
    const failures = checks.filter((check) => check.parse_error !== undefined || check.errors.length > 0);
    const firstFailure = failures[0];
    if (firstFailure === undefined) {
      const onlyCheck = checks.length === 1 ? checks[0] : undefined;
      const what = onlyCheck !== undefined ? describeMessage(onlyCheck.message) : `all ${countOf(checks.length, 'assistant message')}`;
      return verdictResult(IDENTITY, true, `${what} matched the JSON schema`, details);
    }
    const more = failures.length > 1 ? ` (and ${failures.length - 1} more message${failures.length > 2 ? 's' : ''})` : '';
    return verdictResult(IDENTITY, false, `${describeFailure(firstFailure)}${more}`, details);
  },
});

function describeFailure(check: MessageCheck): string {
  const where = describeMessage(check.message);
  if (check.parse_error !== undefined) return `${where} is not JSON: ${check.parse_error}`;
  const violations = check.errors.map((error) => `${error.path} ${error.message}`);
  return `${where} does not match the JSON schema: ${listForReason(violations, 2, '; ')}`;
}
