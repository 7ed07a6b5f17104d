import { describe, expect, it } from 'vitest';
import type { Transcript } from '@parley/core';
import { createRedactor } from './redactor.js';

const TEXTS = [
  'Hi, this is Chebet. Can I book a haircut on Thursday?',
  'Hello Chebet Wanjiru! Your number 0712 345 432 is saved.',
  'nginguThandiwe, ngicela ukubhuka',
  'Thandiwe and Chebet both came, call +254 712 345 432',
  'Nothing personal here.',
];

describe('withNames: one redactor per names list in a family', () => {
  it('gives the same redactor for the same added names, whoever in the family asks', () => {
    const root = createRedactor();
    const scoped = root.withNames(['Chebet']);
    expect(root.withNames(['Chebet'])).toBe(scoped);
    expect(root.withNames(['Chebet', 'Chebet'])).toBe(scoped);
    expect(scoped.withNames(['Chebet'])).toBe(scoped);
    const wider = scoped.withNames(['Thandiwe']);
    expect(root.withNames(['Chebet', 'Thandiwe'])).toBe(wider);
    expect(root.withNames(['Thandiwe', 'Chebet'])).not.toBe(wider); // another order: its own (equal) redactor
  });

  it('redacts exactly as a redactor built with those names', () => {
    const root = createRedactor();
    for (const names of [['Chebet'], ['Chebet Wanjiru', 'Thandiwe'], ['Thandiwe']]) {
      const scoped = root.withNames(names);
      const fresh = createRedactor({ names });
      for (const text of TEXTS) expect(scoped.text(text)).toBe(fresh.text(text));
    }
  });

  it("masks a transcript's names the same when its conversation's redactor is reused", () => {
    const transcript: Transcript = {
      turns: [
        { role: 'user', turn: 1, content: 'Hi, this is Chebet. Can I book a haircut?' },
        { role: 'assistant', turn: 1, content: 'Hello Chebet! When would you like to come?' },
      ],
    } as Transcript;
    const root = createRedactor();
    // As the event log does turn by turn: the scoped redactor learns the name and redacts each turn.
    const streamed = root.withNames(root.namesIn(transcript.turns[0]!.content));
    const turns = transcript.turns.map((turn) => streamed.turn(turn));
    expect(root.transcript(transcript).turns).toEqual(turns);
    expect(createRedactor().transcript(transcript).turns).toEqual(turns);
    expect(turns[1]!.content).toBe('Hello <name>! When would you like to come?');
  });

  it('keeps a bounded family: an old names list is built again, redacting the same', () => {
    const root = createRedactor();
    const first = root.withNames(['Chebet']);
    for (let index = 0; index < 100; index += 1) root.withNames([`Person${String.fromCharCode(97 + (index % 26))}${String.fromCharCode(97 + Math.floor(index / 26))}`]);
    const again = root.withNames(['Chebet']);
    expect(again).not.toBe(first);
    for (const text of TEXTS) expect(again.text(text)).toBe(first.text(text));
  });
});
