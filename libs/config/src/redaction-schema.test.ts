import { formatIssue } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from './config-file.js';
import { SuiteSchema } from './suite-schema.js';

const HEAD = 'suite: s\nagents: {}\n';

function issues(redaction: string): string[] {
  return parseConfigText(`${HEAD}${redaction}`, 'parley.yaml', SuiteSchema).issues.map(formatIssue);
}

describe('redaction: in parley.yaml', () => {
  it('accepts identities, name fields, keep literals, rules and extras with rules, terms or fields', () => {
    const parsed = parseConfigText(
      `${HEAD}redaction:
  identities: data/known_names.txt
  name_fields: [customer_name, customer.name]
  keep: ["0800 150 150"]
  rules:
    - { name: ticket, pattern: "TKT-\\\\d+" }
  restricted_verticals: [dental]
  extras:
    dental:
      rules: [{ name: tooth, pattern: "tooth \\\\d+", flags: i, replacement: "<tooth>" }]
      terms: [root canal]
      fields: [diagnosis]
`,
      'parley.yaml',
      SuiteSchema,
    );
    expect(parsed.issues).toEqual([]);
    expect(parsed.data?.redaction?.rules).toEqual([{ name: 'ticket', pattern: 'TKT-\\d+', replacement: '<redacted>' }]);
    expect(parsed.data?.redaction?.extras?.['dental']?.terms).toEqual(['root canal']);
  });

  it.each([
    ['a replacement that is not a placeholder', '  rules: [{ name: r, pattern: x, replacement: "***" }]\n', /a replacement is a placeholder/],
    ['a pattern that does not compile', '  rules: [{ name: r, pattern: "(" }]\n', /not a valid regular expression/],
    ['a flag other than i, m, s, u', '  rules: [{ name: r, pattern: x, flags: g }]\n', /flags are among i, m, s and u/],
    ['extras that configure nothing', '  extras:\n    dental: {}\n', /configure at least one of rules, terms or fields/],
    ['an unknown key', '  identites: names.txt\n', /identites/],
  ])('refuses %s with its location', (_, body, message) => {
    const found = issues(`redaction:\n${body}`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^parley\.yaml:\d+:\d+: /);
    expect(found[0]).toMatch(message);
  });
});
