import { describe, expect, it } from 'vitest';
import { shortenCaseId } from './shorten-case-id.js';

describe('shortenCaseId', () => {
  it('keeps the end of a variant or comparison case when it must cut, so neighbouring cases stay apart', () => {
    const ids = ['en', 'sw', 'zu'].flatMap((lang) => ['careful', 'rushed'].map((persona) => `book_massage[lang=${lang},persona=${persona}]`));
    const cut = ids.map((id) => shortenCaseId(id, 26));
    expect(cut[5]).toBe('boo…ang=zu,persona=rushed]');
    expect(new Set(cut).size).toBe(ids.length);
    expect(cut.every((text) => Array.from(text).length === 26)).toBe(true);
    expect(shortenCaseId('spa_booking_swahili_happy@booking_v2', 26)).toBe('spa_booking_sw…@booking_v2');
  });

  it('leaves what fits as it is and cuts a plain id, or one in a very narrow column, at its end', () => {
    expect(shortenCaseId('greet[lang=zu]', 20)).toBe('greet[lang=zu]');
    expect(shortenCaseId('spa_booking_swahili_happy_path', 12)).toBe('spa_booking…');
    expect(shortenCaseId('greet[lang=zu]', 6)).toBe('greet…');
  });
});
