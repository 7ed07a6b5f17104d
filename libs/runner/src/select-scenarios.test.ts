import { describe, expect, it } from 'vitest';
import { scenarioFilter } from './select-scenarios.js';

const SCENARIOS = [
  { id: 'spa_booking_swahili_happy', tags: ['booking'], title: 'Books a massage in Swahili' },
  { id: 'spa_price_question_sw', tags: ['pricing'], title: 'Asks prices in SWAHILI' },
  { id: 'spa_reschedule_en', tags: ['booking'] },
];

const kept = (selection: Parameters<typeof scenarioFilter>[0]): string[] => SCENARIOS.filter(scenarioFilter(selection)).map((scenario) => scenario.id);

describe('scenarioFilter', () => {
  it('--exclude drops ids matching any glob, after --scenario', () => {
    expect(kept({ exclude: ['spa_booking_*'] })).toEqual(['spa_price_question_sw', 'spa_reschedule_en']);
    expect(kept({ globs: ['spa_*'], exclude: ['*_sw', '*_en'] })).toEqual(['spa_booking_swahili_happy']);
  });

  it('--grep keeps a title or id containing any text, ignoring case; a scenario without a title matches by id', () => {
    expect(kept({ grep: ['swahili'] })).toEqual(['spa_booking_swahili_happy', 'spa_price_question_sw']);
    expect(kept({ grep: ['RESCHEDULE'] })).toEqual(['spa_reschedule_en']);
    expect(kept({ grep: ['swahili'], tags: ['booking'] })).toEqual(['spa_booking_swahili_happy']);
    expect(kept({ grep: ['nothing like this'] })).toEqual([]);
  });

  it('matches a variant by its id as written (brackets are not a character class), as a glob, or by its scenario id', () => {
    const variants = ['en', 'sw', 'zu'].map((lang) => ({ id: `spa_booking[lang=${lang}]`, scenario: 'spa_booking', tags: [] }));
    const keptVariants = (selection: Parameters<typeof scenarioFilter>[0]): string[] => variants.filter(scenarioFilter(selection)).map((variant) => variant.id);
    expect(keptVariants({ globs: ['spa_booking[lang=zu]'] })).toEqual(['spa_booking[lang=zu]']);
    expect(keptVariants({ globs: ['spa_booking'] })).toHaveLength(3);
    expect(keptVariants({ globs: ['spa_*'], exclude: ['spa_booking[lang=en]'] })).toEqual(['spa_booking[lang=sw]', 'spa_booking[lang=zu]']);
    expect(keptVariants({ globs: ['spa_booking\\[lang=s*'] })).toEqual(['spa_booking[lang=sw]']);
    expect(keptVariants({ grep: ['LANG=ZU'] })).toEqual(['spa_booking[lang=zu]']);
    expect(keptVariants({ exclude: ['spa_booking'] })).toEqual([]);
  });
});
