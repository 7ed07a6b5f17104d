import { describe, expect, it } from 'vitest';
import { draftScenario, type DraftTarget } from './draft-scenario.js';
import type { ScenarioDraft } from './draft-schema.js';

const DRAFT: ScenarioDraft = {
  id: 'salon_missing_date',
  title: 'Customer asks to book without giving a date',
  tags: ['booking', 'generated'],
  persona: 'Marco, 28, student in San Jose',
  goal: 'a booking next Tuesday at 11:00',
  opening: 'Can you book me in San Jose around 11?',
  max_turns: 8,
  criteria: 'Asks for the missing date before booking.',
  required_phrases: [],
  forbidden_phrases: [' ', 'booked for Monday'],
  expected_tools: ['find_salon', 'book_appointment'],
};
const TARGET: DraftTarget = { agent: 'salon', toolNames: ['find_salon', 'book_appointment'], language: 'en', hasJudge: true };

describe('draftScenario', () => {
  it('maps a draft onto the scenario format: advisory, simulated user, expectations from its fields', () => {
    const checked = draftScenario(DRAFT, TARGET);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.scenario).toMatchObject({
      id: 'salon_missing_date',
      agent: 'salon',
      language: 'en',
      gate: 'advisory',
      tags: ['generated', 'booking'],
      user: { opening: 'Can you book me in San Jose around 11?', simulate: { persona: 'Marco, 28, student in San Jose', goal: 'a booking next Tuesday at 11:00', max_turns: 8 } },
      expect: [
        { metric: 'conversation_judge', criteria: 'Asks for the missing date before booking.', threshold: 0.7 },
        { metric: 'content_signals', forbidden: ['booked for Monday'] },
        { metric: 'tool_correctness', expected: ['find_salon', 'book_appointment'] },
      ],
    });
  });

  it('leaves the judged expectation out when the suite has no judge', () => {
    const checked = draftScenario(DRAFT, { ...TARGET, hasJudge: false });
    expect(checked.ok && checked.scenario.expect.map((expectation) => expectation.metric)).toEqual(['content_signals', 'tool_correctness']);
  });

  it("names every problem in the draft's own words: id, persona, max_turns, unknown tools", () => {
    const checked = draftScenario({ ...DRAFT, id: 'Missing Date', persona: ' ', max_turns: 0, expected_tools: ['cancel_booking'] }, TARGET);
    expect(checked).toEqual({
      ok: false,
      problems: [
        'id: scenario ids use lowercase letters, digits, _ and -',
        expect.stringMatching(/^persona: /),
        expect.stringMatching(/^max_turns: /),
        `expected_tools: "cancel_booking" is not a tool of the agent; the agent's tools are find_salon, book_appointment`,
      ],
    });
  });

  it('an agent without tools accepts no expected tools', () => {
    const checked = draftScenario(DRAFT, { ...TARGET, toolNames: [] });
    expect(checked.ok ? [] : checked.problems).toEqual([expect.stringContaining('the agent has no tools: leave expected_tools empty')]);
  });
});
