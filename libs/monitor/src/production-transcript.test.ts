import { describe, expect, it } from 'vitest';
import { productionTranscript } from './production-transcript.js';

describe('productionTranscript', () => {
  it('numbers turns by the user, keeps two user messages in a row in one turn, and names tools through their call id', () => {
    const transcript = productionTranscript({
      conversation_id: 'c1',
      turns: [
        { role: 'user', content: 'Habari' },
        { role: 'user', content: 'Nataka massage' },
        { role: 'assistant', content: '', tool_calls: [{ id: 't1', name: 'check_availability', args: { day: 'sat' } }] },
        { role: 'tool', content: '{"slots":["10:00"]}', tool_call_id: 't1' },
        { role: 'assistant', content: 'Saa nne?' },
        { role: 'user', content: 'Ndiyo' },
        { role: 'assistant', content: 'Imethibitishwa.' },
      ],
    });
    expect(transcript.turns.map((turn) => [turn.role, turn.turn, turn.tool_name ?? null])).toEqual([
      ['user', 1, null],
      ['user', 1, null],
      ['assistant', 1, null],
      ['tool', 1, 'check_availability'],
      ['assistant', 1, null],
      ['user', 2, null],
      ['assistant', 2, null],
    ]);
  });
});
