import { describe, expect, it } from 'vitest';
import { createRedactor } from './redactor.js';

const redactor = createRedactor({ names: ['Grace Achieng', 'Thandiwe Mokoena', "Wanjiku wa Kamau"] });

/** Every floor rule, with realistic Kenyan and South African text (docs/privacy.md, "The floor"). */
describe('the masking floor', () => {
  describe('phone numbers keep country code, first national digit and last three digits, separators in place', () => {
    it.each([
      ['Kenyan, international with spaces', 'Nipigie +254 712 345 432 kesho', 'Nipigie +254 7** *** 432 kesho'],
      ['Kenyan, international without separators', '+254712345432', '+2547*****432'],
      ['Kenyan, 00 international prefix', '00254 712 345 432', '00254 7** *** 432'],
      ['Kenyan, bare country code as in tool arguments', 'phone=254722118904', 'phone=2547*****904'],
      ['Kenyan, local with spaces', "It's Grace, 0722 118 904.", "It's <name>, 07** *** 904."],
      ['Kenyan, local with hyphens', 'Safaricom 0712-345-432', 'Safaricom 07**-***-432'],
      ['Kenyan, local without separators', 'namba yangu ni 0712345432', 'namba yangu ni 07*****432'],
      ['Kenyan, with the (0) trunk kept', 'Tel +254 (0) 712 345 432', 'Tel +254 (0) 7** *** 432'],
      ['the country code in parentheses, as on a business card', 'Tel (+27) 82 123 4567 or (+254) 712-345-432', 'Tel (+27) 8* *** *567 or (+254) 7**-***-432'],
      ['South African, international', 'WhatsApp me on +27 82 123 4567', 'WhatsApp me on +27 8* *** *567'],
      ['South African, local', 'Bel my by 082 123 4567 asseblief', 'Bel my by 08* *** *567 asseblief'],
      ['South African landline with area code in parentheses', 'Office (011) 345 6789', 'Office (01*) *** *789'],
      ['two numbers in a row', '0712 345 432 au 0722 118 904', '07** *** 432 au 07** *** 904'],
      ['a number after a short number', 'Room 12 0712 345 432', 'Room 12 07** *** 432'],
      ['North American, local with hyphens (as in the SGD dialogues)', 'Their number is 925-446-4144.', 'Their number is 9**-***-*144.'],
      ['North American, area code in parentheses', 'Call (650) 330-1782 today', 'Call (6**) ***-*782 today'],
      ['North American, with dots', 'Phone: 415.555.0132', 'Phone: 4**.***.*132'],
      ['North American, international', 'Call +1 650 330 1782', 'Call +1 6** *** *782'],
    ])('%s', (_, input, expected) => {
      expect(redactor.text(input)).toBe(expected);
    });
  });

  describe('names from the identities list become <name>, whole or in part, in any case', () => {
    it.each([
      ['full name', 'Booking for Grace Achieng confirmed', 'Booking for <name> confirmed'],
      ['first name alone', 'Asante Grace!', 'Asante <name>!'],
      ['lower case as typed on a phone', 'ni mimi thandiwe', 'ni mimi <name>'],
      ['capitals', 'MOKOENA, T.', '<name>, T.'],
      ['a particle only inside the whole name', 'Wanjiku wa Kamau alipiga simu; wa kwanza', '<name> alipiga simu; wa kwanza'],
      ['not inside a longer word', 'Gracefully done', 'Gracefully done'],
    ])('%s', (_, input, expected) => {
      expect(redactor.text(input)).toBe(expected);
    });
  });

  describe('e-mail addresses become <email>', () => {
    it.each([
      ['plain', 'Tuma risiti kwa grace.achieng@gmail.com tafadhali', 'Tuma risiti kwa <email> tafadhali'],
      ['with plus and subdomain', 'thandi+spa@mail.co.za', '<email>'],
      ['with letters outside ASCII (an Afrikaans first name)', 'Stuur dit na zoë.botha@voorbeeld.co.za of andré@kliniek.co.za.', 'Stuur dit na <email> of <email>.'],
    ])('%s', (_, input, expected) => {
      expect(redactor.text(input)).toBe(expected);
    });
  });

  describe('runs of six or more digits are masked, except money, receipts, tracking ids and toll-free numbers', () => {
    it.each([
      ['a Kenyan national id', 'ID yangu ni 28451937', 'ID yangu ni ********'],
      ['a South African id number', 'ID 8001015009087', 'ID *************'],
      ['an account number inside a word', 'acc12345678', 'acc********'],
      ['five digits stay', 'Namba 10111 na 12345', 'Namba 10111 na 12345'],
      ['KES amount', 'Umelipa KES 150000 kupitia M-Pesa', 'Umelipa KES 150000 kupitia M-Pesa'],
      ['KES amount without a space', 'KES150000', 'KES150000'],
      ['KSh with thousands and cents', 'Ksh. 1500000.00 imepokelewa', 'Ksh. 1500000.00 imepokelewa'],
      ['rand with R', 'Jy het R 250000 betaal', 'Jy het R 250000 betaal'],
      ['ZAR', 'ZAR 1500000 deposit', 'ZAR 1500000 deposit'],
      ['amount before the currency', '150000 KES', '150000 KES'],
      ['an M-Pesa receipt code', 'QGH7XK2L9M Confirmed. Ksh1,200.00 sent', 'QGH7XK2L9M Confirmed. Ksh1,200.00 sent'],
      ['an M-Pesa receipt with a long digit run', 'Receipt RKT4123456 received', 'Receipt RKT4123456 received'],
      ['a PesaPal OrderTrackingId (a UUID)', 'OrderTrackingId=9f1c2b3a-1234-4c5d-8e9f-0a1b2c3d4e5f', 'OrderTrackingId=9f1c2b3a-1234-4c5d-8e9f-0a1b2c3d4e5f'],
      ['a labelled tracking id', 'tracking id: 88340211779', 'tracking id: 88340211779'],
      ['the GBV helpline (toll-free)', 'Call 0800 150 150 or 10111', 'Call 0800 150 150 or 10111'],
      ['a card number', 'card 4111 1111 1111 1111', 'card <card>'],
    ])('%s', (_, input, expected) => {
      expect(redactor.text(input)).toBe(expected);
    });
  });

  describe('secrets never survive', () => {
    it.each([
      ['an OpenAI key', 'key=sk-proj-AbC123xyz456def789', 'key=<secret>'],
      ['an Anthropic key', 'sk-ant-api03-abcdefghijklmnop', '<secret>'],
      ['a bearer token', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc123', 'Authorization: Bearer <secret>'],
      ['basic credentials', 'Authorization: Basic cGstbGYtMTIzOnNrLWxmLTQ1Ng==', 'Authorization: Basic <secret>'],
      ['credentials in a URL', 'POST https://svc:hunter22@agent.example/chat', 'POST https://<secret>@agent.example/chat'],
      ['a key in a query string', 'GET /v1?api_key=abcdef123456&x=1', 'GET /v1?api_key=<secret>&x=1'],
      ['but not the word after Basic', 'Basic information on prices', 'Basic information on prices'],
    ])('%s', (_, input, expected) => {
      expect(redactor.text(input)).toBe(expected);
    });
  });

  it('leaves dates, times, prices with separators, scores and booking ids alone', () => {
    const text = 'BK-1057: 2026-12-03 at 15:00, KES 1,200, score 0.52 (threshold 0.70), 45 min';
    expect(redactor.text(text)).toBe(text);
  });

  it('takes three groups of 3, 3 and 4 digits for a North American number only when area code and exchange begin with 2-9', () => {
    const text = 'Codes 100-555-0132 and 212-055-0132, table 12-345-6789, reference 555-0132-446';
    expect(redactor.text(text)).toBe(text);
  });

  it('keeps hex digests (hashed arguments, recording keys) whole', () => {
    const hashed = { sha256: '1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef' };
    expect(redactor.value({ details: hashed })).toEqual({ details: hashed });
  });

  it('hashes tool arguments and keeps the tool name', () => {
    const call = redactor.toolCall({ id: 'call_1', name: 'create_booking', args: { customer_name: 'Grace Achieng', phone: '254722118904' } });
    expect(call.name).toBe('create_booking');
    expect(call.args).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(call)).not.toContain('Grace');
    expect(redactor.toolCall(call)).toEqual(call);
  });
});
