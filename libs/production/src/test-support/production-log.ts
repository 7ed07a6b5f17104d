/*
 * Production-log fixtures for promotion and redaction tests.
 *
 * The user and agent turns are adapted from dialogues 29_00055 and 29_00057 (salon) and 28_00105
 * (dentist) of the Schema-Guided Dialogue dataset (Rastogi et al., "Towards Scalable Multi-domain
 * Conversational Modeling: The Schema-Guided Dialogue Dataset", AAAI 2020), licensed CC BY-SA 4.0;
 * this file is shared under the same license. Changed: a Nairobi salon and clinic, Kenyan names,
 * phone numbers, e-mail, M-Pesa details, tool calls, timestamps and feedback added.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LoggedConversation } from '../conversation-log.js';

/** "Now" of the fixtures: every promotion test runs on this date. */
export const NOW = new Date('2026-11-30T12:00:00Z');

/** Text of the conversations that must never appear unmasked in anything promotion writes. */
export const PERSONAL_DATA = ['Grace', 'Achieng', '722 118 904', '722118904', 'grace.achieng', 'Wanjiru', '0733 456 789', '28451937'];

/** A salon booking (29_00055) where the agent never states the price: 👎 with a comment. */
export const GRACE_BOOKING: LoggedConversation = {
  conversation_id: 'wa:254722118904:2026-11-27',
  tenant: 'zuri_spa',
  vertical: 'salon',
  language: 'en',
  customer: { name: 'Grace Achieng', phone: '+254 722 118 904' },
  turns: [
    { role: 'user', content: 'Can you find me a unisex salon in Kilimani?', timestamp: '2026-11-27T09:00:00Z' },
    { role: 'assistant', content: 'The best salon in Kilimani is Zuri Spa & Salon.', timestamp: '2026-11-27T09:00:02Z', usage: { input_tokens: 410, output_tokens: 14 } },
    { role: 'user', content: 'Good. Please book an appointment at the salon.', timestamp: '2026-11-27T09:01:10Z' },
    { role: 'user', content: "It's Grace Achieng, 0722 118 904.", timestamp: '2026-11-27T09:01:25Z' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_a', name: 'check_availability', args: { service: 'hair_blowdry', date: '2026-12-03' } }],
      timestamp: '2026-11-27T09:01:27Z',
      usage: { input_tokens: 460, output_tokens: 22 },
    },
    { role: 'tool', tool_call_id: 'call_a', content: '{"slots":["12:00","15:00"],"price_kes":1200}', timestamp: '2026-11-27T09:01:27Z' },
    { role: 'assistant', content: 'Which time suits you, Grace? There is 12:00 or 15:00 on 3 December.', timestamp: '2026-11-27T09:01:29Z', usage: { input_tokens: 500, output_tokens: 20 } },
    { role: 'user', content: 'Please book on 3rd of December at 12:00', timestamp: '2026-11-27T09:02:40Z' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_b', name: 'create_booking', args: { customer_name: 'Grace Achieng', phone: '254722118904', slot: '12:00' } }],
      timestamp: '2026-11-27T09:02:42Z',
    },
    { role: 'tool', tool_name: 'create_booking', content: '{"booking_id":"BK-2041","status":"confirmed","customer":{"name":"Grace Achieng"}}', timestamp: '2026-11-27T09:02:42Z' },
    { role: 'assistant', content: 'Booked: Zuri Spa & Salon, 12 pm on 3 December, booking BK-2041.', timestamp: '2026-11-27T09:02:45Z' },
    {
      role: 'user',
      content: 'yes correct. what is the rating and contact number of the salon? send the receipt to grace.achieng@gmail.com',
      timestamp: '2026-11-27T09:03:30Z',
    },
    { role: 'assistant', content: 'Its rating is 4.5 and the front desk is on 0711 000 111. Receipt sent!', timestamp: '2026-11-27T09:03:33Z' },
  ],
};

/** A salon booking (29_00057) that went well: 👍. */
const HAPPY_BOOKING: LoggedConversation = {
  conversation_id: 'wa:254733456789:2026-11-28',
  tenant: 'zuri_spa',
  vertical: 'salon',
  turns: [
    { role: 'user', content: 'I want an appointment at Zuri. Wanjiru here, 0733 456 789.', timestamp: '2026-11-28T10:00:00Z' },
    { role: 'assistant', content: 'Karibu Wanjiru! What time and date do you want the appointment to be?', timestamp: '2026-11-28T10:00:03Z' },
    { role: 'user', content: 'Five pm on December 11th.', timestamp: '2026-11-28T10:01:00Z' },
    { role: 'assistant', content: 'Your appointment is confirmed for 5 pm on 11 December. KES 1,200, pay at the desk.', timestamp: '2026-11-28T10:01:04Z' },
  ],
};

/** A dentist appointment (28_00105): a restricted vertical. */
export const DENTIST_VISIT: LoggedConversation = {
  conversation_id: 'wa:254700111222:2026-11-29',
  tenant: 'smile_dental',
  vertical: 'dental',
  turns: [
    { role: 'user', content: 'My teeth hurt. Get me a dentist. ID 28451937.', timestamp: '2026-11-29T08:00:00Z' },
    { role: 'assistant', content: 'I suggest Amazing Smile Dental in Westlands. Shall I book?', timestamp: '2026-11-29T08:00:02Z' },
    { role: 'user', content: 'Reserve 10th of December from afternoon 12:30?', timestamp: '2026-11-29T08:01:00Z' },
    { role: 'assistant', content: 'I have booked for you but they do not offer cosmetic services.', timestamp: '2026-11-29T08:01:03Z' },
  ],
};

/** A conversation nobody rated. */
const UNRATED: LoggedConversation = {
  conversation_id: 'wa:254711222333:2026-11-29',
  vertical: 'salon',
  turns: [
    { role: 'user', content: 'Do you do braids?', timestamp: '2026-11-29T11:00:00Z' },
    { role: 'assistant', content: 'Yes, box braids from KES 4,500.', timestamp: '2026-11-29T11:00:02Z' },
  ],
};

/** A month-old conversation with a 💬 comment: outside `--since 7d`. */
const OLD_COMPLAINT: LoggedConversation = {
  conversation_id: 'wa:254722000999:2026-10-30',
  vertical: 'salon',
  turns: [
    { role: 'user', content: 'Is the salon open on Sunday?', timestamp: '2026-10-30T09:00:00Z' },
    { role: 'assistant', content: 'Yes, 10:00 to 17:00.', timestamp: '2026-10-30T09:00:02Z' },
  ],
};

export const CONVERSATIONS = [GRACE_BOOKING, HAPPY_BOOKING, UNRATED, OLD_COMPLAINT];

/** Feedback lines in the shapes the WhatsApp buttons and Langfuse exports produce. */
export const FEEDBACK_LINES = [
  { conversation_id: GRACE_BOOKING.conversation_id, user_feedback: '👎', comment: 'It never told me the price! Call me back on 0722 118 904', timestamp: '2026-11-27T09:05:00Z' },
  { conversation_id: HAPPY_BOOKING.conversation_id, user_feedback: 1, timestamp: '2026-11-28T10:02:00Z' },
  { conversation_id: OLD_COMPLAINT.conversation_id, user_feedback: '💬', comment: 'Sunday hours were wrong', timestamp: '2026-10-30T09:10:00Z' },
  { conversation_id: 'wa:254799999999:2026-11-20', user_feedback: -1, timestamp: '2026-11-20T09:10:00Z' },
  { name: 'latency', conversation_id: GRACE_BOOKING.conversation_id, value: 2.5 },
];

export const DENTIST_FEEDBACK = { conversation_id: DENTIST_VISIT.conversation_id, user_feedback: '👎', comment: 'Booked the wrong day', timestamp: '2026-11-29T08:05:00Z' };

export function jsonLines(values: readonly unknown[]): string {
  return values.map((value) => `${JSON.stringify(value)}\n`).join('');
}

/** A booking suite in a temp folder whose one agent's tools match the fixtures; extra files by relative path. */
export function writePromotionSuite(extraYaml = '', files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-promote-'));
  const all: Record<string, string> = {
    'parley.yaml': `suite: zuri_booking
agents:
  booking:
    kind: openai
    model: gpt-4.1-mini
    system_prompt: prompts/booking.md
    tools: tools/booking.json
    temperature: 0.3
redaction:
  restricted_verticals: [dental, medical]
${extraYaml}`,
    'prompts/booking.md': 'You are Ratiba, the booking assistant of Zuri Spa & Salon in Nairobi.\n',
    'tools/booking.json': JSON.stringify([
      { name: 'check_availability', description: 'Free slots', parameters: { type: 'object', properties: { service: { type: 'string' }, date: { type: 'string' } } } },
      { name: 'create_booking', description: 'Books a slot', parameters: { type: 'object', properties: { slot: { type: 'string' } } } },
    ]),
    'scenarios/smoke.yaml': 'id: smoke\nagent: booking\nuser:\n  opening: "Habari"\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
