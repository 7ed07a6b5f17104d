import { requestKey } from '@parley/providers';
import { describe, expect, it } from 'vitest';
import { draftBatchRequest, draftRepairRequest, type DraftBrief } from './draft-request.js';

const MODEL = { provider: 'openai' as const, model: 'gpt-4.1-mini', temperature: 0.7, seed: 3 };
const BRIEF: DraftBrief = {
  description: 'M-Pesa payments for a spa in Nairobi',
  count: 3,
  language: 'sw',
  agent: { name: 'booking', systemPrompt: 'You are Ratiba.', tools: [{ name: 'request_mpesa_payment', description: 'Sends an STK push', parameters: { type: 'object' } }] },
};

describe('draftBatchRequest', () => {
  it("asks for the count in the language, quoting the agent's prompt and tools, with the simulator's sampling and a strict JSON schema", () => {
    const request = draftBatchRequest(MODEL, BRIEF);
    const text = request.messages[0]!.content;
    expect(text).toMatch(/^Write 3 test scenarios for the agent "booking"\./);
    expect(text).toContain('the language with ISO 639 code "sw"');
    expect(text).toContain("The agent's system prompt:\nYou are Ratiba.");
    expect(text).toContain('- request_mpesa_payment: Sends an STK push');
    expect(request).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini', temperature: 0.7, seed: 3, response_schema: { name: 'scenario_drafts' } });
    const schema = request.response_schema!.schema as { properties: { scenarios: { items: { required: string[]; additionalProperties: boolean } } } };
    expect(schema.properties.scenarios.items.additionalProperties).toBe(false);
    expect(schema.properties.scenarios.items.required).toContain('persona');
  });

  it('gives the same recording key for the same inputs, another for another description', () => {
    expect(requestKey(draftBatchRequest(MODEL, BRIEF))).toBe(requestKey(draftBatchRequest(MODEL, { ...BRIEF })));
    expect(requestKey(draftBatchRequest(MODEL, { ...BRIEF, description: 'refunds' }))).not.toBe(requestKey(draftBatchRequest(MODEL, BRIEF)));
  });
});

describe('draftRepairRequest', () => {
  it('replays the batch conversation, then the problems of each attempt, asking for the one draft', () => {
    const request = draftRepairRequest(MODEL, BRIEF, '{"scenarios":[]}', [{ problems: ['id: bad'], answer: '{}' }, { problems: ['persona: empty'] }], 1);
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(request.messages[2]!.content).toMatch(/^Scenario 2 of your answer has these problems:\n- id: bad\n/);
    expect(request.messages[4]!.content).toMatch(/^That scenario has these problems:\n- persona: empty\n/);
    expect(request.response_schema?.name).toBe('scenario_draft');
  });
});
