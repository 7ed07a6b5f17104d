import { describe, expect, it } from 'vitest';
import type { LoadedScenario } from '@parley/config';
import { loadingSelection, scenarioFilter, selectCases, type ScenarioSelection } from './select-scenarios.js';

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

describe('selectCases', () => {
  const scenarioCase = (id: string, agent: string): LoadedScenario =>
    ({ file: '/suite/scenarios/spa_booking.yaml', data: { id, agent, tags: ['booking'] }, gate: 'blocking', expectations: [], variant: { scenario: 'spa_booking', vars: {} } }) as unknown as LoadedScenario;
  const cases = ['en', 'zu'].flatMap((lang) => [scenarioCase(`spa_booking[lang=${lang}]`, 'booking'), scenarioCase(`spa_booking[lang=${lang}]@booking_v2`, 'booking_v2')]);
  const selected = (selection: ScenarioSelection): string[] => selectCases(cases, selection).map((kept) => kept.data.id);

  it('matches a variant case by its id as written, by <scenario>@<agent> (its own agent too), and by its scenario', () => {
    expect(selected({ exclude: ['spa_booking[lang=zu]@booking_v2'] })).toEqual(['spa_booking[lang=en]', 'spa_booking[lang=en]@booking_v2', 'spa_booking[lang=zu]']);
    expect(selected({ globs: ['*@booking'] })).toEqual(['spa_booking[lang=en]', 'spa_booking[lang=zu]']);
    expect(selected({ globs: ['spa_booking@*'] })).toEqual([]);
    expect(selected({ exclude: ['spa_booking', '*@booking'] })).toEqual([]);
    expect(selected({ grep: ['lang=zu]@'] })).toEqual(['spa_booking[lang=zu]', 'spa_booking[lang=zu]@booking_v2']);
  });

  it('leaves the patterns that name a case out of the loading selection, and keeps a glob pattern list @(a|b)', () => {
    expect(loadingSelection({ globs: ['spa_*', '*@booking_v2'], exclude: ['x', '*@b'], grep: ['@b'], tags: ['t'] })).toEqual({ tags: ['t'], exclude: ['x'] });
    expect(loadingSelection({ globs: ['@(spa_a|spa_b)'] })).toEqual({ globs: ['@(spa_a|spa_b)'] });
  });
});
