import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Transcript } from '@parley/core';
import { createRedactor } from './redactor.js';
import { floorRedactor } from './floor-redactor.js';
import { NAME_CUES_RULE } from './floor-name-cues.js';
import { nameSpans } from './name-cues.js';

const redactor = floorRedactor();

/** Names nobody listed, found by the words around them (NAME_CUES_RULE); the examples of docs/privacy.md. */
describe('names found by their cues', () => {
  it.each([
    // isiZulu and isiXhosa: the prefix stays glued to the placeholder, so the grammar still reads.
    ['isiZulu copula ngi-ngu- glued to the name', 'Sawubona, nginguThandiwe, ngicela ukubhuka.', 'Sawubona, ngingu<name>, ngicela ukubhuka.'],
    ['isiZulu personal prefix u- before a full name', 'uSipho Nkosi uzofika kusasa.', 'u<name> uzofika kusasa.'],
    ['the prefix capitalised at the start of a sentence', 'USipho uthe ngimshayele.', 'U<name> uthe ngimshayele.'],
    ['a hyphen before a vowel', 'Ngicela u-Ayanda angishayele.', 'Ngicela u-<name> angishayele.'],
    ['possessive ka-', 'Ingane kaLindiwe iyagula.', 'Ingane ka<name> iyagula.'],
    ['no- (with) before the possessive ka-', 'Ngicela ukhulume nokaZanele uma kunenkinga.', 'Ngicela ukhulume noka<name> uma kunenkinga.'],
    ['isiXhosa igama lam ngu-', 'Molo, igama lam nguSiphokazi Mbeki.', 'Molo, igama lam ngu<name>.'],
    ['isiXhosa ndingu-', 'NdinguLwandle, ndifowunela ngamanzi.', 'Ndingu<name>, ndifowunela ngamanzi.'],
    ['igama lami ngu- glued to a name typed in lower case', 'sawubona, igama lami ngubongani', 'sawubona, igama lami ngu<name>'],
    ['ngingu and ndingu written apart from a capitalised name', 'Ngingu Thandiwe Mthembu. Molo, ndingu Luthando.', 'Ngingu <name>. Molo, ndingu <name>.'],
    ['a title behind a prefix', 'Ngisebenzela uMnu. Khumalo.', 'Ngisebenzela uMnu. <name>.'],
    // Introductions
    ['Swahili jina langu ni', 'Habari, jina langu ni Amina Wanjiru, naomba miadi.', 'Habari, jina langu ni <name>, naomba miadi.'],
    ['Swahili naitwa, typed in lower case', 'naitwa otieno', 'naitwa <name>'],
    ['Afrikaans my naam is, with particles', 'My naam is Pieter van der Merwe.', 'My naam is <name>.'],
    ['Sesotho ke nna', 'Ke nna Palesa Mokoena.', 'Ke nna <name>.'],
    ['Sesotho lebitso la ka ke', 'lebitso la ka ke Teboho', 'lebitso la ka ke <name>'],
    ['English my name is', "Hi, my name is Grace Achieng and I'd like a booking.", "Hi, my name is <name> and I'd like a booking."],
    ['a field label', 'Customer: Faith Wambui, phone: +254 733 456 789', 'Customer: <name>, phone: +254 7** *** 789'],
    // Titles, greetings, transfer messages
    ['a Swahili title', 'Nataka kuongea na Bi. Achieng.', 'Nataka kuongea na Bi. <name>.'],
    ['an Afrikaans title before a surname that begins with particles', 'Hallo, Mnr. van der Merwe hier.', 'Hallo, Mnr. <name> hier.'],
    ['Mev. before du', 'Mev. du Plessis kom Donderdag.', 'Mev. <name> kom Donderdag.'],
    ['the Swahili honorific Mzee', 'Karibu Mzee Juma Mwangi, tutakupigia.', 'Karibu Mzee <name>, tutakupigia.'],
    ['Goeiedag and Kwaheri, when the name closes them', 'Goeiedag Pieter, welkom. Kwaheri Wanjiru!', 'Goeiedag <name>, welkom. Kwaheri <name>!'],
    ['Afrikaans on the phone: hier praat, dit is', 'Hier praat Sannie Botha. Dit is Sannie hier.', 'Hier praat <name>. Dit is <name> hier.'],
    ['a greeting the name closes', 'Sawubona Bongani! Isikhathi sakho siqinisekisiwe.', 'Sawubona <name>! Isikhathi sakho siqinisekisiwe.'],
    ['a greeting followed by an ordinary word', 'Hi, How can I help?', 'Hi, How can I help?'],
    ['an M-Pesa confirmation', 'SKS4H7T2QX Confirmed. Ksh1,500.00 sent to GRACE ACHIENG 0722118904 on 27/11/26', 'SKS4H7T2QX Confirmed. Ksh1,500.00 sent to <name> 07*****904 on 27/11/26'],
    ['a name before "said"', 'Kevin said he would come.', '<name> said he would come.'],
  ])('%s', (_, input, expected) => {
    expect(redactor.text(input)).toBe(expected);
  });

  it.each([
    ['places after the same prefixes', 'Ngihlala kwaMashu eThekwini, KwaZulu-Natal, eduze kwase-Umlazi.'],
    ['a district with the personal prefix', 'Siyakwamukela uMgungundlovu.'],
    ['days, months and holidays', 'Ngizofika ngoMsombuluko, hhayi ngoJanuwari noma ngoKhisimusi.'],
    ['institutions and brands', 'UMasipala uthe uye eHome Affairs, ukhokhe ngeVodacom.'],
    ['a place or a nationality after a weak introduction', "I'm Kenyan. Ke Mosotho. Ek is Maandag beskikbaar. This is Umlazi Clinic."],
    ['amounts and receipts', 'Ngikhokhe R250 nge-M-Pesa, i-receipt ithi QGH7XK2L9M; Paybill 247247.'],
    ['a day or a place after dit is', 'Dit is Maandag. Dit is Kaapstad se beste salon.'],
    ['ordinary words capitalised after a greeting, an introduction or a prefix', 'Hallo Almal, welkom. Habari Yako? Welcome Back! This is Urgent. Ngicela ukhulume noMphathi noma noMongameli.'],
    ['a question about a name', 'Igama lakho ngubani? Jina lako ni nani? Igama lakhe ngubani?'],
    ['a phrase that introduces something else', 'Call me back please; the file name is wrong; jina langu limeandikwa vibaya.'],
  ])('%s stay as they are', (_, input) => {
    expect(redactor.text(input)).toBe(input);
  });

  it('masks a name it found wherever else it appears in the text', () => {
    expect(redactor.text('Ngingu-Ayanda. Ngicela ukhulume noAyanda kuphela, Ayanda.')).toBe('Ngingu-<name>. Ngicela ukhulume no<name> kuphela, <name>.');
  });

  it('masks a name one message introduces in every message of the conversation', () => {
    const transcript: Transcript = {
      ended_by: 'script',
      turns: [
        { role: 'user', turn: 1, content: 'Sawubona, nginguThandiwe. Ngifuna ukubhuka.' },
        { role: 'assistant', turn: 1, content: 'Ngiyabonga Thandiwe ngokubhuka nathi. Thandiwe, isikhathi sakho ngo-10.' },
      ],
    };
    const masked = redactor.transcript(transcript);
    expect(masked.turns.map((turn) => turn.content)).toEqual([
      'Sawubona, ngingu<name>. Ngifuna ukubhuka.',
      'Ngiyabonga <name> ngokubhuka nathi. <name>, isikhathi sakho ngo-10.',
    ]);
  });

  it('keeps working with a suite’s identities, and is idempotent', () => {
    const suite = createRedactor({ names: ['Grace Achieng'] });
    const once = suite.text('uGrace uthe igama lami nguSipho Nkosi, Grace Achieng ungumngane wami.');
    expect(once).toBe('u<name> uthe igama lami ngu<name>, <name> ungumngane wami.');
    expect(suite.text(once)).toBe(once);
  });
});

describe('nameSpans on a text it has seen', () => {
  it('gives the same spans again, as new objects a caller may change', () => {
    const text = 'Sawubona, nginguThandiwe. uSipho Nkosi uzofika';
    const first = nameSpans(text, NAME_CUES_RULE);
    expect(first.map((span) => text.slice(span.start, span.end))).toEqual(['Thandiwe', 'Sipho Nkosi']);
    first[0]!.end = 0;
    first.pop();
    const again = nameSpans(text, NAME_CUES_RULE);
    expect(again.map((span) => text.slice(span.start, span.end))).toEqual(['Thandiwe', 'Sipho Nkosi']);
    expect(again[0]).not.toBe(first[0]);
  });

  it('still finds an accented name after an accented cue (words outside ASCII take the general folding)', () => {
    // "Pasiënt:" is a cue; the accented word after it is not ASCII and takes the general folding.
    const text = 'Pasiënt: Zoë Müller';
    expect(nameSpans(text, NAME_CUES_RULE).map((span) => text.slice(span.start, span.end))).toEqual(['Zoë Müller']);
  });
});

describe('nameSpans on plain ASCII text', () => {
  // A text of plain ASCII is matched with ASCII character classes, any other text with Unicode
  // ones. A line of non-ASCII in front ("é" and a line break: nothing the cues look at crosses a
  // line break or starts at a letter before it) sends the same text down the Unicode path: the
  // spans must be the same, shifted by that line.
  const viaUnicode = (text: string): string[] => {
    const shifted = `é\n${text}`;
    return nameSpans(shifted, NAME_CUES_RULE).map((span) => `${span.start - 2}-${span.end - 2}:${shifted.slice(span.start, span.end)}`);
  };
  const viaAscii = (text: string): string[] => nameSpans(text, NAME_CUES_RULE).map((span) => `${span.start}-${span.end}:${text.slice(span.start, span.end)}`);
  const ascii = (phrase: string): boolean => /^[\x00-\x7f]*$/.test(phrase);
  const rule = NAME_CUES_RULE;
  const cues = [
    ...rule.prefixes,
    ...rule.introductions,
    ...rule.weak_introductions,
    ...rule.titles,
    ...rule.greetings,
    ...rule.transfer_introductions,
    ...rule.following,
  ].filter(ascii);
  const words = ['Grace', 'Achieng', 'Azola', 'zizi', 'Zanele Zulu', 'GRACE ACHIENG', 'Sipho', "Ng'ang'a", 'Mary-Jane', "Kevin's", 'amina', 'van der', 'Merwe', 'KwaMashu', 'Durban', 'He', 'The'];
  const glue = [' ', '  ', '\t', '\n', ', ', '. ', '! ', ': ', '-', '_', '@', '0', ' +254 712 345 432', "'", 'x', '’', '≤', ' – ', '·', '€'];

  it('finds the same names as the Unicode patterns, for every cue of the floor rule', () => {
    for (const cue of cues) {
      for (const text of [`${cue} Grace Achieng.`, `Hi. ${cue} amina, bye`, `${cue.toUpperCase()} Sipho van der Merwe!`, `x${cue}Thandiwe`, `${cue} GRACE ACHIENG 0722118904`]) {
        expect(viaAscii(text), text).toEqual(viaUnicode(text));
      }
    }
  });

  it('finds the same names as the Unicode patterns (property)', () => {
    const text = fc.array(fc.oneof(fc.constantFrom(...cues), fc.constantFrom(...words), fc.constantFrom(...glue), fc.string({ unit: 'binary-ascii', maxLength: 4 })), { maxLength: 16 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (input) => {
        expect(viaAscii(input)).toEqual(viaUnicode(input));
      }),
      { numRuns: 3000 },
    );
  });
});
