import { describe, expect, it } from 'vitest';
import { fitCaseId } from './styled-lines.js';

describe('fitCaseId', () => {
  it('pads to the column, and a cut keeps the end of a variant or comparison case', () => {
    expect(fitCaseId('greet[lang=zu]', 20)).toBe('greet[lang=zu]      ');
    expect(fitCaseId('book_massage[lang=zu,persona=rushed]', 26)).toBe('boo…ang=zu,persona=rushed]');
    expect(fitCaseId('spa_booking_swahili_happy_path', 12)).toBe('spa_booking…');
  });
});
