import { describe, expect, it } from 'vitest';
import { caseId, scenarioOfCase } from './comparison-case.js';

describe('comparison case ids', () => {
  it('keep the scenario id for its own agent and add @agent for any other', () => {
    expect(caseId('spa_booking', 'booking', 'booking')).toBe('spa_booking');
    expect(caseId('spa_booking', 'booking_v2', 'booking')).toBe('spa_booking@booking_v2');
  });

  it('split back into the scenario id', () => {
    expect(scenarioOfCase('spa_booking@booking_v2')).toBe('spa_booking');
    expect(scenarioOfCase('spa_booking')).toBe('spa_booking');
  });
});
