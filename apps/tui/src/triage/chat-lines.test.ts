import { describe, expect, it } from 'vitest';
import type { Transcript } from '@parley/core';
import { messageJudgements } from '@parley/reports';
import { makeTheme } from '../theme.js';
import { chatLines } from './chat-lines.js';
import { judge } from './test-support/triage-store.js';
import type { StyledLine } from './styled-lines.js';

const text = (lines: StyledLine[]) => lines.map((line) => line.map((segment) => segment.text).join(''));

describe('chatLines', () => {
  const transcript: Transcript = {
    turns: [
      { role: 'user', content: 'Hi, a haircut on Friday?', turn: 1, simulated: true },
      { role: 'assistant', content: '', turn: 1, tool_calls: [{ name: 'check_availability', args: { day: 'friday' } }] },
      { role: 'tool', content: '{"slots":[]}', turn: 1, tool_name: 'check_availability', tool_mocked: true },
      { role: 'assistant', content: 'Sorry, Friday is full.', turn: 1 },
    ],
    ended_by: 'goal_unreachable',
    end_explanation: 'no slot on Friday',
  };

  it('puts each judge reason right under the message it scores, by transcript position', () => {
    const lines = text(chatLines(transcript, messageJudgements([judge(0.6, [[3, 60, 'Apologises but offers no other day.']])]), 80, makeTheme(false)));
    expect(lines).toEqual([
      'user · turn 1 · simulated',
      '  Hi, a haircut on Friday?',
      '',
      'assistant · turn 1',
      '  → check_availability {"day":"friday"}',
      '',
      'tool check_availability · mocked',
      '  {"slots":[]}',
      '',
      'assistant · turn 1',
      '  Sorry, Friday is full.',
      '  ▸ 60/100 conversation_judge: Apologises but offers no other day.',
      '',
      'ended by goal_unreachable: no slot on Friday',
    ]);
  });

  it('wraps reasons under their marker within the width', () => {
    const lines = text(chatLines(transcript, messageJudgements([judge(0.6, [[3, 60, 'word '.repeat(30).trim()]])]), 40, makeTheme(false)));
    const start = lines.findIndex((line) => line.includes('▸'));
    const reason = lines.slice(start, lines.indexOf('', start));
    expect(reason.length).toBeGreaterThan(2);
    expect(reason.every((line) => line.length <= 40)).toBe(true);
    expect(reason.slice(1).every((line) => line.startsWith('    word'))).toBe(true);
  });
});
