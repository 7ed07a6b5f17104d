import { describe, expect, it } from 'vitest';
import { defaultWireRequest, interpolateEnv, readWireReply, renderWireRequest, valueAtPath, type WireVariables } from './service-wire.js';

const variables: WireVariables = {
  conversation_id: 'conv_1',
  tenant: 'test_tenant_a_0011aabb',
  scenario_id: 'a',
  run_id: 'r1',
  turn: 2,
  message: 'Saa nne',
  history: [{ role: 'user', content: 'Habari' }, { role: 'assistant', content: 'Karibu' }],
};

describe('the service wire format', () => {
  it('sends the documented default wire body', () => {
    expect(defaultWireRequest(variables)).toEqual({
      conversation_id: 'conv_1', tenant: 'test_tenant_a_0011aabb', scenario_id: 'a', turn: 2, message: 'Saa nne', history: variables.history,
    });
  });

  it('renders a request template: whole placeholders keep their type, inner ones become text', () => {
    const body = renderWireRequest({ input: { text: '{{message}}', past: '{{history}}', n: '{{ turn }}' }, session: 'tenant={{tenant}};turn={{turn}}', fixed: [1, true] }, variables);
    expect(body).toEqual({ input: { text: 'Saa nne', past: variables.history, n: 2 }, session: 'tenant=test_tenant_a_0011aabb;turn=2', fixed: [1, true] });
    expect(() => renderWireRequest({ x: '{{mesage}}' }, variables)).toThrow(/names \{\{mesage\}\}; known: conversation_id/);
  });

  it('reads the reply, tool calls and state with default or mapped paths', () => {
    expect(readWireReply({ reply: 'Karibu', tool_calls: [{ name: 'check', args: { day: 'sat' } }], state: 'offering' })).toEqual({
      reply: 'Karibu', tool_calls: [{ name: 'check', args: { day: 'sat' } }], state: 'offering',
    });
    const mapped = readWireReply(
      { data: { answer: 'Sawa', actions: [{ name: 'book', arguments: '{"slot":"10:00"}' }, { name: 'pay', input: { amount: 1500 } }] }, meta: { step: 3 } },
      { reply: 'data.answer', tool_calls: '$.data.actions', state: 'meta.step' },
    );
    expect(mapped).toEqual({ reply: 'Sawa', tool_calls: [{ name: 'book', args: { slot: '10:00' } }, { name: 'pay', args: { amount: 1500 } }], state: '3' });
    expect(valueAtPath({ choices: [{ message: { content: 'x' } }] }, 'choices[0].message.content')).toBe('x');
  });

  it('says what is wrong with an answer that does not fit', () => {
    expect(() => readWireReply({ text: 'hi' })).toThrow('the agent\'s answer has no text at "reply" (found nothing)');
    expect(() => readWireReply({ reply: 'hi', tool_calls: 'book' })).toThrow('"tool_calls" is not a list');
    expect(() => readWireReply({ reply: 'hi', tool_calls: [{ args: {} }] })).toThrow('tool_calls[0] is not a tool call with a "name"');
  });

  it('fills ${ENV} from the environment and refuses an unset variable', () => {
    expect(interpolateEnv('Bearer ${TOKEN}', { TOKEN: 'abc' })).toBe('Bearer abc');
    expect(() => interpolateEnv('${MISSING}', {})).toThrow('${MISSING} is not set in the environment');
  });
});
