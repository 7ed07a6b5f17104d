import type { RubricMetricFile } from '@parley/config';

/**
 * `fluency_af`: Afrikaans fluency for service businesses and public services in South Africa
 * (the municipal example's agents answer in Afrikaans too). Its own rubric and version. Bump
 * `version` with any change below: a test pins the pair.
 */
export const fluencyAfRubric: RubricMetricFile = {
  name: 'fluency_af',
  version: '1.0.0',
  scale: { min: 1, max: 5 },
  language: 'af',
  applies_to: 'each_assistant_message',
  rubric: [
    "Judge the assistant's Afrikaans as a fluent South African speaker would, for a service business or a public service answering customers and residents in writing (WhatsApp, web chat).",
    '5: natural, clear standard Afrikaans; the polite register (u, asseblief, dankie) where a service owes it; conventional loanwords only.',
    '4: natural, with a minor awkwardness (a stiff phrase, a Dutch or English word order).',
    '3: understandable but visibly translated from English (anglicisms such as "maak seker" for every "make sure", English word order), or stiff officialese.',
    '2: hard to follow, the wrong register, or several anglicisms where Afrikaans words are usual.',
    '1: not Afrikaans (Dutch or English instead), or not usable with a customer.',
    "When the customer mixes Afrikaans and English, following the customer's mix is natural, as long as the reply stays clear to them.",
  ].join('\n'),
  criteria: [
    {
      id: 'afrikaans_reply',
      level: 'required',
      text: 'The message is in Afrikaans, or follows the customer when they switch language; it is not Dutch.',
    },
    {
      id: 'natural_register',
      level: 'recommended',
      text: 'Natural, plain Afrikaans: not a word-for-word translation from English, not officialese.',
    },
    {
      id: 'polite_address',
      level: 'recommended',
      text: 'The polite register a service owes its customers (u rather than jy to a stranger, asseblief, dankie).',
    },
    {
      id: 'clear_facts',
      level: 'recommended',
      text: 'Reference numbers, dates, times, amounts and phone numbers are stated plainly. not_applicable when the message carries none.',
    },
  ],
};
