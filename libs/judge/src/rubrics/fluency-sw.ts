import type { RubricMetricFile } from '@parley/config';

/**
 * `fluency_sw`: Swahili fluency for a Kenyan small service business (the first users' customers
 * write Swahili). Its own rubric and version, separate from `fluency_en`, so iterating on one
 * language never invalidates the other's cached verdicts and a PR shows which language's rubric it
 * changed. Bump `version` with any change below: a test pins the pair.
 */
export const fluencySwRubric: RubricMetricFile = {
  name: 'fluency_sw',
  version: '1.0.0',
  scale: { min: 1, max: 5 },
  language: 'sw',
  applies_to: 'each_assistant_message',
  rubric: [
    "Judge the assistant's Swahili as a fluent Kenyan speaker would, for a small service business (a spa, salon or barbershop in Kenya) that takes bookings and M-Pesa payments.",
    '5: idiomatic, natural Kenyan Swahili, what a customer expects from a friendly receptionist; loanwords only where they are conventional; the politeness register is right.',
    '4: natural, with a minor awkwardness (a bookish word, a stiff construction).',
    '3: understandable but visibly translated from English or stiff, or one unconventional Anglicism.',
    '2: hard to follow, the wrong register for a customer, or several unconventional Anglicisms.',
    '1: not Swahili, or not usable with a customer.',
    'Conventional loanwords are fine and often preferred: "spa", "booking", "massage", "M-Pesa", "deposit", "slot". "Reservation" is not conventional in Swahili: "booking" or "nafasi" are.',
    "When the customer mixes English and Swahili, following the customer's mix is natural, as long as the reply stays clear to them.",
  ].join('\n'),
  criteria: [
    {
      id: 'swahili_reply',
      level: 'required',
      text: 'The message is in Swahili, or in the Swahili-English mix the customer uses; it does not switch wholesale to English while the customer writes Swahili.',
    },
    {
      id: 'idiomatic_register',
      level: 'recommended',
      text: 'Idiomatic Swahili suited to a service business taking a booking: not a literal translation from English, not bookish or officialese.',
    },
    {
      id: 'conventional_loanwords',
      level: 'recommended',
      text: 'Avoids Anglicisms unless they are conventional in Kenyan Swahili ("spa" and "booking" are conventional; "reservation" is not).',
    },
    {
      id: 'code_switching',
      level: 'recommended',
      text: "Handles the customer's code-switching gracefully: answers their mix naturally and keeps the key facts (day, time, price, booking number) clear. not_applicable when the customer does not code-switch.",
    },
    {
      id: 'politeness_register',
      level: 'recommended',
      text: 'The politeness register fits a Kenyan small business: "samahani" to apologise for an inconvenience the business caused, "pole" to sympathise with a misfortune of the customer; warm greetings and thanks (karibu, asante).',
    },
  ],
};
