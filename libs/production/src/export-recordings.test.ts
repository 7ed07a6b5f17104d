import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@parley/core';
import { loadSuite, type LoadedSuite, type RecordingEntry } from '@parley/config';
import { suiteRedactor } from '@parley/redaction';
import { describe, expect, it } from 'vitest';
import { exportRecordings } from './export-recordings.js';
import { writePromotionSuite } from './test-support/production-log.js';

function entry(role: RecordingEntry['role'], messages: unknown[], response: Partial<RecordingEntry['response']>): RecordingEntry {
  return {
    v: 1,
    role,
    key: 'a'.repeat(64),
    turn: 1,
    provider: 'openai',
    model: 'gpt-4.1-mini',
    request: { provider: 'openai', model: 'gpt-4.1-mini', system: 'Call the owner on +254 722 000 111 if stuck.', messages },
    response: { content: '', tool_calls: [], finish_reason: 'stop', model: 'gpt-4.1-mini', ...response },
    usage: { input_tokens: 120, output_tokens: 30 },
    latency_ms: 840,
    recorded_at: '2026-11-27T09:00:00.000Z',
  };
}

const BOOKING_CALLS = [
  entry('agent', [{ role: 'user', content: "It's Amina Odhiambo, 0712 345 432" }], {
    tool_calls: [{ id: 'call_1', name: 'create_booking', args: { customer_name: 'Amina Odhiambo', phone: '254712345432' } }],
    finish_reason: 'tool_calls',
  }),
  entry(
    'agent',
    [
      { role: 'user', content: "It's Amina Odhiambo, 0712 345 432" },
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'create_booking', args: { customer_name: 'Amina Odhiambo', phone: '254712345432' } }] },
      { role: 'tool', tool_call_id: 'call_1', name: 'create_booking', content: '{"booking_id":"BK-9","customer_name":"Amina Odhiambo","deposit":"KES 150000"}' },
    ],
    { content: 'Asante Amina! BK-9 is booked; pay KES 150000 by M-Pesa, receipt QGH7XK2L9M.' },
  ),
];

const GBV_CALL = entry('agent', [{ role: 'user', content: 'My husband beat me last night' }], {
  content: 'You are not alone. Call 0800 150 150.',
});

function suiteWithRecordings(): LoadedSuite {
  const dir = writePromotionSuite('', {
    'scenarios/booking.yaml': 'id: booking\nagent: booking\nuser:\n  opening: "hi"\n',
    'scenarios/gbv.yaml': 'id: gbv\nagent: booking\nmetadata_only: true\nuser:\n  opening: "hi"\n',
    'recordings/booking.jsonl': BOOKING_CALLS.map((call) => `${JSON.stringify(call)}\n`).join(''),
    'recordings/gbv.jsonl': `${JSON.stringify(GBV_CALL)}\n`,
  });
  return loadSuite(dir, { metricParams: {} });
}

describe('exportRecordings', () => {
  it('writes masked copies: text redacted, names learned from tool calls, arguments hashed, money and receipts kept', () => {
    const suite = suiteWithRecordings();
    const outDir = join(suite.dir, 'shared');
    const result = exportRecordings({ suite, redactor: suiteRedactor(suite), outDir });
    expect(result.exported.map((item) => [item.scenario_id, item.calls, item.withheld])).toEqual([
      ['booking', 2, false],
      ['gbv', 1, true],
    ]);
    expect(result.without_recording).toEqual(['smoke']);

    const booking = readFileSync(join(outDir, 'booking.jsonl'), 'utf8');
    expect(booking).not.toMatch(/Amina|Odhiambo|345 432|254712345432|722 000/);
    const [first, second] = booking.trim().split('\n').map((line) => JSON.parse(line) as RecordingEntry);
    expect(first?.response.tool_calls[0]).toEqual({ id: 'call_1', name: 'create_booking', args: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(second?.response.content).toBe('Asante <name>! BK-9 is booked; pay KES 150000 by M-Pesa, receipt QGH7XK2L9M.');
    expect(second?.request['system']).toBe('Call the owner on +254 7** *** 111 if stuck.');
    expect(second?.usage).toEqual({ input_tokens: 120, output_tokens: 30 });

    const gbv = readFileSync(join(outDir, 'gbv.jsonl'), 'utf8');
    expect(gbv).not.toMatch(/husband|not alone|0800/);
    expect(JSON.parse(gbv)).toMatchObject({ role: 'agent', model: 'gpt-4.1-mini', latency_ms: 840, usage: { input_tokens: 120, output_tokens: 30 } });
  });

  it('masks a name one message introduces in every call of the recording', () => {
    const calls = [
      entry('agent', [{ role: 'user', content: 'Sawubona, nginguThandiwe.' }], { content: 'Ngiyabonga Thandiwe, ngingakusiza ngani?' }),
      entry('agent', [{ role: 'user', content: 'Sawubona, nginguThandiwe.' }, { role: 'assistant', content: 'Ngiyabonga Thandiwe, ngingakusiza ngani?' }, { role: 'user', content: 'Ngifuna isikhathi.' }], {
        content: 'Kulungile Thandiwe.',
      }),
    ];
    const dir = writePromotionSuite('', {
      'scenarios/booking.yaml': 'id: booking\nagent: booking\nuser:\n  opening: "hi"\n',
      'recordings/booking.jsonl': calls.map((call) => `${JSON.stringify(call)}\n`).join(''),
    });
    const suite = loadSuite(dir, { metricParams: {} });
    const outDir = join(suite.dir, 'shared');
    exportRecordings({ suite, redactor: suiteRedactor(suite), outDir });
    const exported = readFileSync(join(outDir, 'booking.jsonl'), 'utf8');
    expect(exported).not.toContain('Thandiwe');
    expect(exported).toContain('Kulungile <name>.');
    expect(exported).toContain('Sawubona, ngingu<name>.');
  });

  it('never overwrites: an existing file stops the export before anything is written', () => {
    const suite = suiteWithRecordings();
    const outDir = join(suite.dir, 'shared');
    exportRecordings({ suite, redactor: suiteRedactor(suite), outDir });
    writeFileSync(join(outDir, 'booking.jsonl'), 'mine\n');
    const again = join(suite.dir, 'shared');
    expect(() => exportRecordings({ suite, redactor: suiteRedactor(suite), outDir: again })).toThrow('exists already: exports never overwrite a file');
    expect(readFileSync(join(outDir, 'booking.jsonl'), 'utf8')).toBe('mine\n');
  });

  it('refuses a scenario of a restricted vertical without extras, and writes nothing', () => {
    const suite = suiteWithRecordings();
    const booking = suite.scenarios.find((scenario) => scenario.data.id === 'booking')!;
    const restricted: LoadedSuite = {
      ...suite,
      scenarios: suite.scenarios.map((scenario) => (scenario === booking ? { ...scenario, data: { ...scenario.data, vertical: 'dental' } } : scenario)),
    };
    const outDir = join(suite.dir, 'refused');
    expect(() => exportRecordings({ suite: restricted, redactor: suiteRedactor(suite), outDir })).toThrow(ConfigError);
    expect(() => exportRecordings({ suite: restricted, redactor: suiteRedactor(suite), outDir })).toThrow(
      '"dental" is a restricted vertical without redaction extras: add redaction.extras.dental to parley.yaml; nothing was exported',
    );
    expect(existsSync(outDir)).toBe(false);
    expect(readdirSync(suite.dir).sort()).toEqual(['parley.yaml', 'prompts', 'recordings', 'scenarios', 'tools']);
  });
});
