import { describe, expect, it } from 'vitest';
import { caseId, scenarioFileId, scenarioOfCase } from './comparison-case.js';

describe('comparison case ids', () => {
  it('keep the scenario id for its own agent and add @agent for any other', () => {
    expect(caseId('spa_booking', 'booking', 'booking')).toBe('spa_booking');
    expect(caseId('spa_booking', 'booking_v2', 'booking')).toBe('spa_booking@booking_v2');
  });

  it('split back into the scenario id', () => {
    expect(scenarioOfCase('spa_booking@booking_v2')).toBe('spa_booking');
    expect(scenarioOfCase('spa_booking')).toBe('spa_booking');
  });

  it('compose with variant ids: the agent splits off, the variant stays; the file id drops both', () => {
    expect(caseId('spa_booking[lang=zu]', 'booking_v2', 'booking')).toBe('spa_booking[lang=zu]@booking_v2');
    expect(scenarioOfCase('spa_booking[lang=zu]@booking_v2')).toBe('spa_booking[lang=zu]');
    expect(scenarioFileId('spa_booking[lang=zu]@booking_v2')).toBe('spa_booking');
    expect(scenarioFileId('spa_booking[lang=zu,persona=rushed]')).toBe('spa_booking');
    expect(scenarioFileId('spa_booking@booking_v2')).toBe('spa_booking');
    expect(scenarioFileId('spa_booking')).toBe('spa_booking');
  });
});
