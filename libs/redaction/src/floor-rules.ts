import { NAME_CUES_RULE } from './floor-name-cues.js';
import type { DigitRunRule, KeepRule, NamesRule, PatternRule, PhoneRule, RedactionRule } from './redaction-rule.js';

/**
 * Credentials that must never leave a run, whatever else is configured (docs/privacy.md,
 * "The floor"): provider and Langfuse keys, bearer/basic tokens, cloud and chat tokens, credentials
 * inside URLs, PEM keys.
 */
const SECRET_RULES: readonly PatternRule[] = [
  { kind: 'pattern', name: 'private_key', pattern: '-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?-----END [A-Z ]*PRIVATE KEY-----', replacement: '<secret>', trigger: 'PRIVATE KEY' },
  // OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), Langfuse (sk-lf-, pk-lf-), and their test look-alikes.
  { kind: 'pattern', name: 'api_key', pattern: '\\b(?:sk|pk|rk)-[A-Za-z0-9_\\-]{8,}', replacement: '<secret>', trigger: 'k-' },
  // The token after an Authorization scheme; a token has a digit, so "Basic information" stays.
  {
    kind: 'pattern',
    name: 'authorization_token',
    pattern: '(?<=\\b(?:Bearer|Basic|Token)\\s+)(?=[A-Za-z._~+/=\\-]*\\d)[A-Za-z0-9._~+/\\-]{8,}=*',
    flags: 'i',
    replacement: '<secret>',
    trigger: 'bearer|basic|token',
  },
  { kind: 'pattern', name: 'aws_access_key', pattern: '\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b', replacement: '<secret>', trigger: 'AKIA|ASIA' },
  { kind: 'pattern', name: 'github_token', pattern: '\\bgh[pousr]_[A-Za-z0-9]{20,}', replacement: '<secret>', trigger: 'gh[pousr]_' },
  { kind: 'pattern', name: 'slack_token', pattern: '\\bxox[abposr]-[A-Za-z0-9\\-]{10,}', replacement: '<secret>', trigger: 'xox' },
  { kind: 'pattern', name: 'url_credentials', pattern: '(?<=\\b[a-z][a-z0-9+.\\-]*://)[^/\\s:@<>]+:[^/\\s@<>]+(?=@)', flags: 'i', replacement: '<secret>', trigger: '://' },
  {
    kind: 'pattern',
    name: 'url_key_parameter',
    pattern: '(?<=[?&](?:api[_\\-]?key|key|token|access_token|secret|password)=)[^&\\s#<>]{6,}',
    flags: 'i',
    replacement: '<secret>',
    trigger: '=',
  },
];

/**
 * What the floor keeps verbatim (docs/privacy.md, "The floor"): money amounts with their currency,
 * M-Pesa receipt codes and payment tracking ids are load-bearing for diagnosing double charges, and
 * none of them identifies a person. A kept span is hidden from every later rule, so `KES 150000`
 * survives the 6-digit rule and a receipt code is never read as a phone number.
 */
const KEEP_RULES: readonly KeepRule[] = [
  // KES 150000, KSh 1,500.00, Ksh.2500, ZAR 25000, USD 40, TZS 150000
  {
    kind: 'keep',
    name: 'money_currency_code',
    pattern: '\\b(?:KES|KShs?|Kshs?|ZAR|USD|EUR|GBP|TZS|TSh|UGX|USh|NGN|RWF|ETB|GHS|ZMW|BWP|MWK)\\.?\\s?\\d[\\d,]*(?:\\.\\d+)?',
    flags: 'i',
    trigger: '\\d',
  },
  // R 25000, R25000, $40, US$ 40, €30, £20, ₦5000 (the rand's R only in capitals, only before a number)
  { kind: 'keep', name: 'money_currency_symbol', pattern: '(?:(?<![\\p{L}\\p{N}])R|US\\$|[$€£₦])\\s?\\d[\\d,]*(?:\\.\\d+)?', flags: 'u', trigger: '\\d' },
  // 150000 KES, 25000 rand, 1,200 shillings
  {
    kind: 'keep',
    name: 'money_amount_then_currency',
    pattern: '\\d[\\d,]*(?:\\.\\d+)?\\s?(?:KES|KShs?|ZAR|USD|EUR|GBP|TZS|UGX|NGN|shillings?|bob|rand)\\b',
    flags: 'i',
    trigger: '\\d',
  },
  // M-Pesa receipt codes: 10 capitals and digits, starting with a letter, with another letter and a digit (QGH7XK2L9M).
  { kind: 'keep', name: 'mpesa_receipt', pattern: '\\b[A-Z](?=[0-9]*[A-Z])(?=[A-Z0-9]*[0-9])[A-Z0-9]{9}\\b', trigger: '\\d' },
  // M-Pesa paybill and till numbers belong to businesses (Paybill 247247, Till No. 832109).
  { kind: 'keep', name: 'mpesa_business_number', pattern: '\\b(?:pay ?bill|till)(?:[ .]?(?:no\\.?|number|namba|nambari))?\\s*[:#]?\\s*\\d{5,7}\\b', flags: 'i', trigger: 'bill|till' },
  // PesaPal OrderTrackingId and other payment tracking ids are UUIDs.
  { kind: 'keep', name: 'payment_tracking_uuid', pattern: '\\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\b', flags: 'i', trigger: '-' },
  // Hex digests (sha256 of tool arguments, recording keys, fingerprints) identify data without holding it.
  { kind: 'keep', name: 'hex_digest', pattern: '\\b[0-9a-f]{32,}\\b', trigger: '\\d' },
  // Toll-free numbers (0800 150 150, the South African GBV helpline) belong to services, never to customers.
  { kind: 'keep', name: 'toll_free_number', pattern: '(?<![\\d+])0800[ .\\-]?\\d{3}[ .\\-]?\\d{3,4}(?!\\d)', trigger: '0800' },
  // A tracking id, merchant reference or receipt number written after its label.
  {
    kind: 'keep',
    name: 'payment_reference',
    pattern:
      '\\b(?:order[ _\\-]?tracking[ _\\-]?id|tracking[ _\\-]?(?:id|no\\.?|number|code)|merchant[ _\\-]?reference|receipt(?:[ _\\-]?(?:no\\.?|number|code))?|confirmation[ _\\-]?code)["\']?\\s*[:=#]?\\s*["\']?[A-Za-z0-9\\-]{6,}',
    flags: 'i',
    trigger: 'track|merchant|receipt|confirmation',
  },
];

const EMAIL_RULE: PatternRule = {
  kind: 'pattern',
  name: 'email',
  // Letters of any script, as internationalised addresses have them (`zoë.botha@…`, `andré@…`):
  // an ASCII-only local part masked `zoë.botha@x.co.za` as `zoë<email>`, keeping the first name.
  pattern: '(?<![\\p{L}\\p{M}\\p{N}._%+\\-])[\\p{L}\\p{M}\\p{N}._%+\\-]+@[\\p{L}\\p{M}\\p{N}\\-]+(?:\\.[\\p{L}\\p{M}\\p{N}\\-]+)*\\.\\p{L}{2,}',
  flags: 'u',
  replacement: '<email>',
  trigger: '@',
};

/** Card numbers in groups of four (`4111 1111 1111 1111`), which the 6-digit rule does not see. */
const PAYMENT_CARD_RULE: PatternRule = {
  kind: 'pattern',
  name: 'payment_card',
  pattern: '(?<!\\d)(?:\\d{4}[ \\-]){3}\\d{1,7}(?!\\d)',
  replacement: '<card>',
  trigger: '\\d{4}',
};

/** Kenyan, South African and neighbouring numbers, and North American ones written locally; see {@link PhoneRule}. */
const PHONE_RULE: PhoneRule = {
  kind: 'phone',
  name: 'phone',
  bare_country_codes: [
    { code: '254', national_digits: 9 }, // Kenya
    { code: '255', national_digits: 9 }, // Tanzania
    { code: '256', national_digits: 9 }, // Uganda
    { code: '250', national_digits: 9 }, // Rwanda
    { code: '251', national_digits: 9 }, // Ethiopia
    { code: '27', national_digits: 9 }, // South Africa
    { code: '260', national_digits: 9 }, // Zambia
    { code: '263', national_digits: 9 }, // Zimbabwe
    { code: '264', national_digits: 9 }, // Namibia
    { code: '265', national_digits: 9 }, // Malawi
    { code: '267', national_digits: 8 }, // Botswana
    { code: '233', national_digits: 9 }, // Ghana
    { code: '234', national_digits: 10 }, // Nigeria
  ],
  local_national_digits: [9, 10],
  international_national_digits: { min: 6, max: 12 },
  north_american_local: true,
  mask: '*',
};

const NAMES_RULE: NamesRule = { kind: 'names', name: 'names', min_part_length: 3 };

const DIGIT_RUN_RULE: DigitRunRule = { kind: 'digit_run', name: 'digit_run', min_length: 6, mask: '*' };

export interface ComposeRulesInput {
  /** Literal values that are secrets (API keys from the environment, header values). */
  secretValues?: readonly string[];
  /** Literal strings to keep verbatim (`redaction.keep`). */
  keep?: readonly string[];
  /** The suite's own rules and its verticals' extras, as pattern rules. */
  suiteRules?: readonly RedactionRule[];
}

/**
 * The floor with a suite's additions in their places: secrets first (literal secret values, then
 * the secret patterns), then what is kept, then the suite's rules, then the floor's masking rules.
 */
export function composeRules(input: ComposeRulesInput = {}): RedactionRule[] {
  const keepLiterals: KeepRule[] = uniqueLongestFirst(input.keep ?? []).map((value, index) => ({
    kind: 'keep',
    name: `keep_${index + 1}`,
    pattern: escapeLiteral(value),
  }));
  return [
    ...secretRules(input.secretValues ?? []),
    ...keepLiterals,
    ...KEEP_RULES,
    ...(input.suiteRules ?? []),
    EMAIL_RULE,
    PHONE_RULE,
    PAYMENT_CARD_RULE,
    NAME_CUES_RULE,
    NAMES_RULE,
    DIGIT_RUN_RULE,
  ];
}

/** The literal secret values (longest first, so no shorter one splits a longer one), then the secret patterns. */
export function secretRules(secretValues: readonly string[]): PatternRule[] {
  const literals: PatternRule[] = uniqueLongestFirst(secretValues).map((value, index) => ({
    kind: 'pattern',
    name: `secret_value_${index + 1}`,
    pattern: escapeLiteral(value),
    replacement: '<secret>',
  }));
  return [...literals, ...SECRET_RULES];
}

function uniqueLongestFirst(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value !== ''))].sort((left, right) => right.length - left.length);
}

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
