import type { RubricMetricFile } from '@parley/config';

/**
 * `fluency_en`: English fluency for small service businesses and public services whose customers
 * speak a local English (Kenyan, South African …), which a generic fluency rubric would mark down.
 * Its own rubric and version, separate from `fluency_sw`. Bump `version` with any change below: a
 * test pins the pair.
 */
export const fluencyEnRubric: RubricMetricFile = {
  name: 'fluency_en',
  version: '1.0.0',
  scale: { min: 1, max: 5 },
  language: 'en',
  applies_to: 'each_assistant_message',
  rubric: [
    "Judge the assistant's English as a fluent local speaker would, for a small business or a public service whose customers speak the English of their country (for example Kenyan or South African English).",
    '5: natural, clear local English; warmer than corporate, more direct than luxury hospitality; the key facts stated plainly.',
    '4: natural, with a minor awkwardness (a stiff phrase, slightly too formal or too casual).',
    '3: understandable but reads like translated American English, corporate boilerplate or a script.',
    '2: hard to follow, the wrong register for the customer, or padded so the facts get lost.',
    '1: not English, or not usable with a customer.',
  ].join('\n'),
  criteria: [
    {
      id: 'english_reply',
      level: 'required',
      text: 'The message is in English, or follows the customer when they switch to another language.',
    },
    {
      id: 'natural_register',
      level: 'recommended',
      text: 'A natural local-English register: no translated American idioms, no corporate jargon or chatbot boilerplate.',
    },
    {
      id: 'service_formality',
      level: 'recommended',
      text: 'Formality right for a small business or public service: warmer than corporate, more direct than luxury hospitality, respectful.',
    },
    {
      id: 'clear_facts',
      level: 'recommended',
      text: 'Key facts (day, time, price with its currency, reference or booking number, phone numbers) are stated plainly. not_applicable when the message carries none.',
    },
  ],
};
