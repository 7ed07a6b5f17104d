import { describe, expect, it } from 'vitest';
import { restrictedVerticalProblem, verticalKey } from './restricted-vertical.js';

const redaction = { restricted_verticals: ['dental', 'Medical'], extras: { medical: { rules: [], terms: ['diagnosis'], fields: [] } } };

describe('restricted verticals', () => {
  it.each(['dental', 'Dental', 'DENTAL', ' dental ', 'ｄｅｎｔａｌ', '\tDental\n', 'de\u200bntal', '\u2060dental\u00ad', 'den\u200dtal\ufe0f'])('refuses %j as the restricted vertical "dental"', (vertical) => {
    expect(restrictedVerticalProblem(redaction, vertical)).toContain('is a restricted vertical without redaction extras: add redaction.extras.dental to parley.yaml');
  });

  it('finds the extras of a vertical however either is spelled', () => {
    expect(restrictedVerticalProblem(redaction, 'MEDICAL')).toBeUndefined();
    expect(restrictedVerticalProblem(redaction, 'medical')).toBeUndefined();
  });

  it('drops zero-width and other default-ignorable code points before comparing', () => {
    expect(verticalKey('de\u200bntal')).toBe('dental');
    expect(verticalKey('\u200eMEDI\u034fCAL\u180e')).toBe('medical');
    expect(restrictedVerticalProblem(redaction, 'medi\u200ccal')).toBeUndefined();
  });

  it('lets other verticals through', () => {
    expect(restrictedVerticalProblem(redaction, 'spa')).toBeUndefined();
    expect(restrictedVerticalProblem(redaction, undefined)).toBeUndefined();
  });

  it('folds case fully (ß and SS meet) and normalises compatibility forms', () => {
    expect(verticalKey('Straße')).toBe(verticalKey('STRASSE'));
    expect(verticalKey('ﬁnance')).toBe('finance');
  });
});
