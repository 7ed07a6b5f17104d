import type { ToolCall, ToolDefinition } from '@parley/core';

/** Every synthetic scenario has this many user turns: the opening plus five scripted lines. */
export const SYNTHETIC_USER_TURNS = 6;

/** The one tool of the synthetic agent; each scenario calls it once, in its second turn. */
export const AVAILABILITY_TOOL: ToolDefinition = {
  name: 'check_availability',
  description: 'Free appointment slots for a service on a day, with its price.',
  parameters: {
    type: 'object',
    properties: {
      service: { type: 'string', description: 'service code' },
      day: { type: 'string', description: 'weekday name' },
    },
    required: ['service', 'day'],
  },
};

/** What the agent answers to one user turn: optionally one tool call first, then its text. */
interface SyntheticReply {
  toolCall?: ToolCall;
  text: string;
}

/** One expectation as it is written into the scenario file. */
export type SyntheticExpectation =
  | { metric: 'content_signals'; required?: string[]; forbidden?: string[]; turn?: number }
  | { metric: 'max_turns'; max: number };

/** Everything a synthetic scenario says and expects; the same index always gives the same text. */
export interface SyntheticConversation {
  id: string;
  title: string;
  /** The opening, then the script: SYNTHETIC_USER_TURNS lines. */
  userTurns: string[];
  /** One reply per user turn, in order. */
  replies: SyntheticReply[];
  /** What the mocked availability tool returns in this scenario. */
  toolReturns: { slots: string[]; price_kes: number };
  expectations: SyntheticExpectation[];
}

const NAMES = ['Amina', 'Brian', 'Chebet', 'Daudi', 'Esther', 'Faith', 'Gitau', 'Halima', 'Imani', 'Juma', 'Kamau', 'Lulu', 'Mwangi'];
const SERVICES = [
  { code: 'massage_swedish_60', label: 'Swedish massage', minutes: 60, price: 3500 },
  { code: 'massage_deep_90', label: 'deep tissue massage', minutes: 90, price: 5000 },
  { code: 'facial_classic', label: 'classic facial', minutes: 60, price: 2800 },
  { code: 'mani_pedi', label: 'manicure and pedicure', minutes: 75, price: 1800 },
  { code: 'hair_blowdry', label: 'wash and blow-dry', minutes: 45, price: 1200 },
  { code: 'braids_box', label: 'box braids', minutes: 270, price: 4500 },
  { code: 'haircut_gents', label: "gents' haircut", minutes: 30, price: 800 },
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const SLOT_SETS = [
  ['09:00', '11:30', '14:00'],
  ['10:00', '13:00', '16:30'],
  ['08:30', '12:00', '15:00', '17:30'],
  ['11:00', '14:30'],
];
const TIME_WISHES = ['in the morning', 'around midday', 'in the afternoon', 'as early as you can'];
const FAREWELLS = ["Thanks, that's all for today.", 'Perfect, thank you so much!', 'Asante, see you then.', 'Great, bye for now.'];

/** The phrase no assistant reply may contain (checked by every scenario's content_signals). */
const FORBIDDEN_PHRASE = 'as an AI language model';

/**
 * The conversation of synthetic scenario number `index` (1-based). Names, services, days, slots
 * and wording rotate with coprime periods, so neighbouring scenarios differ in several places and
 * no two recordings share request keys beyond the system prompt.
 */
export function syntheticConversation(index: number): SyntheticConversation {
  const id = `s_${String(index).padStart(6, '0')}`;
  const name = pick(NAMES, index);
  const service = pick(SERVICES, index * 3);
  const day = pick(DAYS, index * 5);
  const slots = pick(SLOT_SETS, index * 7);
  const slot = pick(slots, index);
  const phone = `07${String((index * 7_919) % 100_000_000).padStart(8, '0')}`;
  const reference = `BK-${String(index).padStart(6, '0')}`;
  const price = `KES ${service.price.toLocaleString('en-US')}`;

  const userTurns = [
    `Hi, this is ${name}. Can I book a ${service.label} on ${day}? (request ${index})`,
    `Something ${pick(TIME_WISHES, index)} would suit me, if that is free.`,
    `${slot} is fine. My number is ${phone}.`,
    'How much will it cost, and how long does it take?',
    'Good, please confirm the booking.',
    pick(FAREWELLS, index * 11),
  ];
  const replies: SyntheticReply[] = [
    { text: `Hello ${name}! I can help with a ${service.label} on ${day}. What time would you prefer?` },
    {
      toolCall: { id: `call_${id}_availability`, name: AVAILABILITY_TOOL.name, args: { service: service.code, day } },
      text: `On ${day} I have ${slots.join(', ')} free. Shall I hold ${slot} for you?`,
    },
    { text: `Thank you ${name}, I have noted ${phone} and I am holding ${slot}.` },
    { text: `The ${service.label} takes ${service.minutes} minutes and costs ${price}.` },
    { text: `Done: your booking reference is ${reference}, ${day} at ${slot}, ${price} payable at the salon.` },
    { text: `You're welcome, ${name}. See you on ${day}!` },
  ];
  const expectations: SyntheticExpectation[] = [
    { metric: 'content_signals', required: [reference, price], forbidden: [FORBIDDEN_PHRASE] },
    { metric: 'max_turns', max: SYNTHETIC_USER_TURNS },
  ];
  if (index % 2 === 0) expectations.push({ metric: 'content_signals', turn: 2, required: [slot] });

  return {
    id,
    title: `Synthetic booking ${index}: ${name} books a ${service.label} on ${day}`,
    userTurns,
    replies,
    toolReturns: { slots, price_kes: service.price },
    expectations,
  };
}

function pick<T>(items: readonly T[], position: number): T {
  const item = items[position % items.length];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}
