import { describe, expect, it } from 'vitest';
import { ruleMatches } from './match-rule.js';
import type { NormalisedMessage, NormalisedRequest } from './normalise-request.js';

const user = (content: string): NormalisedMessage => ({ role: 'user', content, toolCalls: [], toolNames: [] });
const assistantCalling = (...names: string[]): NormalisedMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: names.map((name, index) => ({ id: `call_${index}`, name, arguments: '{"booking_id":"BK-1042"}' })),
  toolNames: [],
});
const toolResult = (name: string, content = '{}'): NormalisedMessage => ({ role: 'tool', content, toolCalls: [], toolNames: [name] });

const request: NormalisedRequest = {
  api: 'openai',
  model: 'gpt-4.1-mini',
  system: 'You are the booking assistant of a spa.',
  messages: [user('Habari! Nataka massage.'), assistantCalling('check_availability', 'get_prices'), toolResult('check_availability'), toolResult('get_prices')],
  headers: { 'x-parley-role': 'judge' },
};

describe('ruleMatches', () => {
  it('matches anything without conditions', () => {
    expect(ruleMatches(undefined, request)).toBe(true);
    expect(ruleMatches({}, request)).toBe(true);
  });

  it.each([
    [{ api: 'openai' as const }, true],
    [{ api: 'anthropic' as const }, false],
    [{ model: 'gpt-4.1-mini' }, true],
    [{ model: 'gpt-4.1' }, false],
    [{ model: '/^gpt-4\\.1/' }, true],
    [{ system: 'booking' }, true],
    [{ system: 'Booking' }, false],
    [{ system: '/BOOKING/i' }, true],
    [{ last_user: '/habari/i' }, true],
    [{ last_user: 'Jambo' }, false],
    [{ last_message_role: 'tool' as const }, true],
    [{ last_message_role: 'user' as const }, false],
    [{ last_tool: 'get_prices' }, true],
    [{ last_tool: 'check_availability' }, true],
    [{ last_tool: 'create_booking' }, false],
    [{ any_message: '/BK-\\d+/' }, true],
    [{ any_message: 'M-Pesa' }, false],
    [{ message_count: 4 }, true],
    [{ message_count: 3 }, false],
    [{ header: { 'X-Parley-Role': 'judge' } }, true],
    [{ header: { 'x-parley-role': 'agent' } }, false],
    [{ header: { 'x-missing': 'judge' } }, false],
  ])('%j → %s', (condition, expected) => {
    expect(ruleMatches(condition, request)).toBe(expected);
  });

  it('requires every given condition', () => {
    expect(ruleMatches({ api: 'openai', last_tool: 'get_prices', message_count: 4 }, request)).toBe(true);
    expect(ruleMatches({ api: 'openai', last_tool: 'get_prices', message_count: 5 }, request)).toBe(false);
  });

  it('last_tool only looks at results at the end of the conversation', () => {
    const later = { ...request, messages: [...request.messages, user('Asante')] };
    expect(ruleMatches({ last_tool: 'get_prices' }, later)).toBe(false);
    expect(ruleMatches({ last_user: 'Asante' }, later)).toBe(true);
  });

  it('last_user fails when there is no user message', () => {
    expect(ruleMatches({ last_user: '/.*/' }, { ...request, messages: [] })).toBe(false);
  });
});
