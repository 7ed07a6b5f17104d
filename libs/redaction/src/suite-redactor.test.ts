import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, type Transcript } from '@parley/core';
import type { SuiteFile } from '@parley/config';
import { describe, expect, it } from 'vitest';
import { parseIdentities } from './identities-file.js';
import { restrictedVerticalProblem } from './restricted-vertical.js';
import { createRedactor } from './redactor.js';
import { secretHeaderValues, secretValues } from './secret-values.js';
import { suiteRedactor } from './suite-redactor.js';

function suiteWith(config: Partial<SuiteFile>, files: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'parley-redaction-'));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return { dir, config: { agents: {}, ...config } as SuiteFile };
}

describe('suiteRedactor', () => {
  it('masks the names of the identities file and keeps what redaction.keep lists', () => {
    const suite = suiteWith(
      { redaction: { identities: 'names.txt', keep: ['0712 000 111'] } },
      { 'names.txt': '# customers who asked to be forgotten\nAmina Odhiambo\n\nSipho Ndlovu\n' },
    );
    const redactor = suiteRedactor(suite);
    expect(redactor.text('Amina (0722 118 904) and sipho; front desk 0712 000 111')).toBe('<name> (07** *** 904) and <name>; front desk 0712 000 111');
  });

  it("applies the suite's rules and every vertical's extras: rules, terms and fields", () => {
    const suite = suiteWith({
      redaction: {
        rules: [{ name: 'ticket', pattern: 'TKT-\\d+', replacement: '<ticket>' }],
        restricted_verticals: ['dental'],
        extras: {
          dental: {
            rules: [{ name: 'tooth', pattern: 'tooth \\d+', flags: 'i', replacement: '<tooth>' }],
            terms: ['root canal', 'extraction'],
            fields: ['diagnosis'],
          },
        },
      },
    });
    const redactor = suiteRedactor(suite);
    expect(redactor.text('TKT-20931: Root canal on Tooth 36, then an extraction')).toBe('<ticket>: <redacted> on <tooth>, then an <redacted>');
    expect(redactor.value({ diagnosis: 'pulpitis', note: 'tooth 11' })).toEqual({ diagnosis: '<redacted>', note: '<tooth>' });
  });

  it('masks the values of secret environment variables and of literal credential headers wherever they appear', () => {
    const suite = suiteWith({
      agents: {
        booking: { kind: 'openai', model: 'm', api_key_env: 'ZURI_LLM' },
        service: { kind: 'http', url: 'http://x', headers: { Authorization: 'Bearer literal-token-123', 'X-Tenant': 'zuri-spa-tenant' } },
      },
    });
    const env = { OPENAI_API_KEY: 'sk-test-OPENAI-123456', ZURI_LLM: 'plainvalue-without-prefix', LANGFUSE_SECRET_KEY: 'lf-secret-98765', HOME: '/home/someone' };
    const redactor = suiteRedactor(suite, { env });
    const text = `sk-test-OPENAI-123456 plainvalue-without-prefix lf-secret-98765 literal-token-123 /home/someone zuri-spa-tenant`;
    expect(redactor.text(text)).toBe('<secret> <secret> <secret> <secret> /home/someone zuri-spa-tenant');
  });

  it('reports an identities line that is not a name with its line and column', () => {
    expect(() => parseIdentities('Amina\n  0712 345 432\n', 'names.txt')).toThrow(ConfigError);
    expect(() => parseIdentities('Amina\n  0712 345 432\n', 'names.txt')).toThrow('names.txt:2:3: "0712 345 432" is not a name');
  });
});

describe('names from structured fields', () => {
  const transcript: Transcript = {
    ended_by: 'script',
    turns: [
      { role: 'user', turn: 1, content: "Hi, it's Lerato. Book me for Saturday." },
      { role: 'assistant', turn: 1, content: '', tool_calls: [{ id: 'c1', name: 'create_booking', args: { customer_name: 'Lerato Dlamini', slot: '10:00' } }] },
      { role: 'tool', turn: 1, content: '{"booking_id":"BK-2211","customer":{"name":"Lerato Dlamini","phone":"+27 82 123 4567"}}', tool_name: 'create_booking' },
      { role: 'assistant', turn: 1, content: 'Done, Lerato Dlamini: BK-2211 on Saturday.' },
    ],
  };

  it('are learned from tool arguments and results and masked in every message, arguments hashed', () => {
    const redacted = createRedactor().transcript(transcript);
    expect(redacted.turns.map((turn) => turn.content)).toEqual([
      "Hi, it's <name>. Book me for Saturday.",
      '',
      '{"booking_id":"BK-2211","customer":{"name":"<name>","phone":"+27 8* *** *567"}}',
      'Done, <name>: BK-2211 on Saturday.',
    ]);
    expect(redacted.turns[1]?.tool_calls?.[0]).toEqual({ id: 'c1', name: 'create_booking', args: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(JSON.stringify(redacted)).not.toMatch(/Lerato|Dlamini|123 4567/);
  });

  it('follow the suite name_fields when given (customerName and customer_name are one field)', () => {
    const redactor = createRedactor({ nameFields: ['client'] });
    expect(redactor.namesIn({ client: 'Naledi', customerName: 'Zola' })).toEqual(['Naledi']);
    expect(createRedactor().namesIn({ customerName: 'Zola', service: { name: 'Swedish massage' } })).toEqual(['Zola']);
  });
});

describe('secrets and restricted verticals', () => {
  it('takes credentials from variables named like keys, and the variables the suite names', () => {
    expect(secretValues({ OPENAI_API_KEY: 'sk-123456789', GITHUB_TOKEN: 'ghp_abcdefgh', PATH: '/usr/bin:/bin', SHORT_KEY: 'abc', MINE: 'value-long' }, ['MINE']).sort()).toEqual(
      ['ghp_abcdefgh', 'sk-123456789', 'value-long'],
    );
    expect(secretHeaderValues({ Authorization: 'Bearer abcdefghij', 'X-Api-Key': '${KEY}', Accept: 'application/json' })).toEqual(['Bearer abcdefghij', 'abcdefghij']);
  });

  it('names the restricted vertical without extras and lets the others through', () => {
    const redaction = { restricted_verticals: ['dental', 'medical'], extras: { medical: { rules: [], terms: ['diagnosis'], fields: [] } } };
    expect(restrictedVerticalProblem(redaction, 'dental')).toBe('"dental" is a restricted vertical without redaction extras: add redaction.extras.dental to parley.yaml');
    expect(restrictedVerticalProblem(redaction, 'medical')).toBeUndefined();
    expect(restrictedVerticalProblem(redaction, 'spa')).toBeUndefined();
    expect(restrictedVerticalProblem(undefined, undefined)).toBeUndefined();
  });
});
