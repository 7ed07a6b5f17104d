import type { RubricMetricFile } from '@parley/config';

/**
 * `fluency_zu`: isiZulu fluency for public services answering residents (the municipal
 * example's agents), first written as the municipal example's own rubric and shipped unchanged, so suites
 * that used that file keep their cached verdicts and recordings. Bump `version` with any change
 * below: a test pins the pair.
 */
export const fluencyZuRubric: RubricMetricFile = {
  name: 'fluency_zu',
  version: '1.0.0',
  scale: { min: 1, max: 5 },
  language: 'zu',
  applies_to: 'each_assistant_message',
  rubric: [
    "Judge the assistant's isiZulu as a fluent speaker from KwaZulu-Natal or Gauteng would, for a",
    'municipal service answering residents on WhatsApp.',
    '5: natural, clear isiZulu a resident would expect from a helpful municipal official; polite forms',
    '   where they belong; conventional loanwords only (i-SMS, ikhodi, iselula, i-referensi).',
    '3: understandable but visibly translated from English, or stiff officialese.',
    '1: not isiZulu, or not usable with a resident.',
  ].join('\n'),
  criteria: [
    { id: 'isizulu_reply', level: 'required', text: 'The message is in isiZulu, or follows the resident when they switch language' },
    { id: 'natural_register', level: 'recommended', text: 'Natural, plain isiZulu: not a word-for-word translation from English, not officialese' },
    { id: 'respectful_address', level: 'recommended', text: 'Respectful address suited to a public service (ngicela, ngiyabonga, a proper greeting)' },
    { id: 'clear_facts', level: 'recommended', text: 'Reference numbers, dates, times and phone numbers are stated plainly. not_applicable when the message carries none' },
  ],
};
