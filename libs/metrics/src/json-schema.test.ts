import { describe, expect, it } from 'vitest';
import { evaluateExpectation } from './evaluate-expectation.js';
import { JsonSchemaParamsSchema, jsonSchemaMetric } from './json-schema.js';
import { conversation } from './test-support/transcript-builder.js';

const bookingSchema = {
  type: 'object',
  required: ['booking_id', 'slot'],
  properties: { booking_id: { type: 'string', pattern: '^BK-' }, slot: { type: 'string' } },
};

const chat = conversation()
  .user('book')
  .assistant('Sure, one moment.')
  .user('10:00')
  .assistant('```json\n{"booking_id": "BK-1042", "slot": "10:00"}\n```')
  .user('and 14:00?')
  .assistant('{"booking_id": "X-1", "slot": 14}')
  .input();

function check(params: Record<string, unknown>) {
  return evaluateExpectation(jsonSchemaMetric, chat, { metric: 'json_schema', schema: bookingSchema, ...params });
}

describe('json_schema', () => {
  it('validates the last assistant message by default and lists the violations', () => {
    const result = check({});
    expect(result).toMatchObject({ passed: false, score: null, threshold: null });
    expect(result.reason).toBe(
      'assistant message 3 (turn 3) does not match the JSON schema: /booking_id must match pattern "^BK-"; /slot must be string',
    );
    expect(result.details).toEqual({
      messages: [
        {
          message_index: 5,
          assistant_message: 3,
          turn: 3,
          parse_error: undefined,
          errors: [
            { path: '/booking_id', message: 'must match pattern "^BK-"' },
            { path: '/slot', message: 'must be string' },
          ],
        },
      ],
    });
  });

  it('accepts JSON inside a fenced block, for the last message of a turn', () => {
    expect(check({ turn: 2 })).toMatchObject({ passed: true, reason: 'assistant message 2 (turn 2) matched the JSON schema' });
  });

  it('with message: all, every message must be valid JSON', () => {
    const result = check({ message: 'all' });
    expect(result.passed).toBe(false);
    expect(result.reason).toMatch(/^assistant message 1 \(turn 1\) is not JSON: .+ \(and 1 more message\)$/);
    expect(check({ message: 'all', turn: 2 }).reason).toBe('assistant message 2 (turn 2) matched the JSON schema');
  });

  it('fails when there is nothing to validate', () => {
    expect(check({ turn: 7 }).reason).toBe('turn 7 has no assistant message (the conversation has 3 user turns)');
    const silent = conversation().user('hi').input();
    expect(evaluateExpectation(jsonSchemaMetric, silent, { metric: 'json_schema', schema: {} }).reason).toBe(
      'there is no assistant message to validate',
    );
  });

  it('makes a broken schema a schema error, with ajv words', () => {
    const typo = JsonSchemaParamsSchema.safeParse({ schema: { type: 'object', requried: ['id'] } });
    expect(typo.error?.issues[0]).toMatchObject({ path: ['schema'], message: 'invalid JSON schema: strict mode: unknown keyword: "requried"' });
    expect(JsonSchemaParamsSchema.safeParse({ schema: { type: 'strin' } }).success).toBe(false);
    expect(JsonSchemaParamsSchema.safeParse({ schema: bookingSchema, message: 'first' }).success).toBe(false);
  });

  it('turns a broken schema into an error result when called directly', () => {
    const result = jsonSchemaMetric.evaluate(chat, { schema: { type: 'strin' } }, null);
    expect(result).toMatchObject({ passed: false, error: true });
    expect(result.reason).toMatch(/^json_schema could not be evaluated: invalid JSON schema: schema is invalid/);
  });

  it('keeps schemas sharing an $id apart', () => {
    const first = check({ schema: { $id: 'booking', type: 'object' } });
    const second = check({ schema: { $id: 'booking', type: 'array' } });
    expect([first.passed, second.passed]).toEqual([true, false]);
  });
});
