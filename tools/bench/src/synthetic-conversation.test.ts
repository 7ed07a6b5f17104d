import { describe, expect, it } from 'vitest';
import { SYNTHETIC_USER_TURNS, syntheticConversation } from './synthetic-conversation.js';

describe('syntheticConversation', () => {
  it('has six user turns, one reply per turn and one tool call', () => {
    const conversation = syntheticConversation(7);
    expect(conversation.id).toBe('s_000007');
    expect(conversation.userTurns).toHaveLength(SYNTHETIC_USER_TURNS);
    expect(conversation.replies).toHaveLength(SYNTHETIC_USER_TURNS);
    expect(conversation.replies.filter((reply) => reply.toolCall)).toHaveLength(1);
  });

  it('varies the text from scenario to scenario', () => {
    const conversations = Array.from({ length: 200 }, (_, index) => syntheticConversation(index + 1));
    expect(new Set(conversations.map((conversation) => conversation.userTurns[0])).size).toBe(200);
    expect(new Set(conversations.map((conversation) => conversation.userTurns.slice(1).join('|'))).size).toBeGreaterThan(20);
  });

  it('carries two or three expectations whose required signals appear in its replies', () => {
    for (const index of [1, 2, 3, 4]) {
      const conversation = syntheticConversation(index);
      expect(conversation.expectations.length).toBeGreaterThanOrEqual(2);
      expect(conversation.expectations.length).toBeLessThanOrEqual(3);
      const replies = conversation.replies.map((reply) => reply.text).join('\n');
      for (const expectation of conversation.expectations) {
        if (expectation.metric !== 'content_signals') continue;
        for (const signal of expectation.required ?? []) expect(replies).toContain(signal);
        for (const signal of expectation.forbidden ?? []) expect(replies).not.toContain(signal);
      }
    }
  });
});
