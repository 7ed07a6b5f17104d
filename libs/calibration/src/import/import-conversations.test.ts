import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, type ScenarioResult } from '@parley/core';
import { RedactionSchema } from '@parley/config';
import { createRedactor } from '@parley/redaction';
import { describe, expect, it } from 'vitest';
import { loadCalibrationSet } from '../set-file/calibration-set-file.js';
import { newCalibrationSetText } from '../set-file/new-calibration-set.js';
import { importConversations, type ImportInput } from './import-conversations.js';

const NOW = new Date('2026-11-30T12:00:00Z');

/** A salon booking where the customer's name and number appear in structured fields and in text. */
const GRACE = {
  conversation_id: 'wa:254722118904:2026-11-27',
  tenant: 'zuri_spa',
  vertical: 'salon',
  language: 'en',
  customer: { name: 'Grace Achieng', phone: '+254 722 118 904' },
  turns: [
    { role: 'user', content: 'Hi, I want braids on Friday. I am Grace, call me on 0722 118 904.', timestamp: '2026-11-27T09:00:00+03:00' },
    { role: 'assistant', content: '', tool_calls: [{ name: 'create_booking', args: { customer_name: 'Grace Achieng', phone: '254722118904' } }] },
    { role: 'tool', content: '{"booking_id":"BK-77","customer_name":"Grace Achieng"}', tool_name: 'create_booking' },
    { role: 'assistant', content: 'Booked, Grace! Friday at 10:00, KES 2,500. Reply to grace.achieng@example.com if anything changes.' },
  ],
};

const SWAHILI = {
  conversation_id: 'wa:254712345678:2026-11-28',
  vertical: 'spa',
  language: 'sw',
  turns: [
    { role: 'user', content: 'Habari, nataka massage Jumamosi.' },
    { role: 'assistant', content: 'Karibu! Saa ngapi?' },
  ],
};

function folderWith(lines: unknown[]): { dir: string; log: string; setFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'parley-import-'));
  const log = join(dir, 'logs.jsonl');
  writeFileSync(log, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'));
  return { dir, log, setFile: join(dir, 'human_labelled.yaml') };
}

function input(setFile: string, log: string, extra: Partial<ImportInput> = {}): ImportInput {
  return {
    setFile,
    source: { kind: 'log', path: log, shown: 'logs.jsonl' },
    redactor: createRedactor(),
    now: NOW,
    initialText: newCalibrationSetText({ rubricVersion: '1.0.0', owner: 'calibration-owner' }),
    ...extra,
  };
}

describe('importConversations', () => {
  it('adds masked, unrated items to a new set and says where each came from', async () => {
    const { log, setFile } = folderWith([GRACE, SWAHILI]);
    const result = await importConversations(input(setFile, log));
    expect(result).toEqual({
      added: [
        { id: 'cal-2026-11-001', origin: 'logs.jsonl:1' },
        { id: 'cal-2026-11-002', origin: 'logs.jsonl:2' },
      ],
      skipped: [],
      refused: [],
    });
    const set = loadCalibrationSet(setFile);
    expect(set.items[0]).toMatchObject({ id: 'cal-2026-11-001', added: '2026-11-30', source: 'production', language: 'en', vertical: 'salon', ratings: [] });
    // Tool traffic and tool-call-only steps are not what reviewers rate.
    expect(set.items[0]!.transcript).toEqual([
      { role: 'user', content: 'Hi, I want braids on Friday. I am <name>, call me on 07** *** 904.' },
      { role: 'assistant', content: expect.stringMatching(/^Booked, <name>! Friday at 10:00, KES 2,500\. Reply to .* if anything changes\.$/) },
    ]);
    const text = readFileSync(setFile, 'utf8');
    for (const personal of ['Grace', 'Achieng', '118 904', 'grace.achieng']) expect(text).not.toContain(personal);
    expect(text).toContain('# The calibration set: masked conversations');
  });

  it('skips what is already in the set by content digest, and numbers on after the month’s highest id', async () => {
    const { log, setFile } = folderWith([SWAHILI, SWAHILI]);
    const first = await importConversations(input(setFile, log));
    expect(first.added.map((item) => item.id)).toEqual(['cal-2026-11-001']);
    expect(first.skipped).toEqual([{ origin: 'logs.jsonl:2', reason: 'already in the set as cal-2026-11-001 (same content digest)' }]);
    const again = await importConversations(input(setFile, log));
    expect(again.added).toEqual([]);
    expect(again.skipped).toHaveLength(2);
    const other = folderWith([GRACE]);
    const next = await importConversations(input(setFile, other.log));
    expect(next.added.map((item) => item.id)).toEqual(['cal-2026-11-002']);
  });

  it('refuses a restricted vertical without redaction extras and conversations without a language', async () => {
    const dental = { ...SWAHILI, conversation_id: 'c-dental', vertical: 'dental', turns: [{ role: 'user', content: 'Jino linauma.' }, { role: 'assistant', content: 'Pole!' }] };
    const unknownLanguage = { ...GRACE, conversation_id: 'c-2', language: undefined };
    const { log, setFile } = folderWith([dental, unknownLanguage]);
    const redaction = RedactionSchema.parse({ restricted_verticals: ['dental'] });
    const result = await importConversations(input(setFile, log, { redaction }));
    expect(result.added).toEqual([]);
    expect(result.refused).toEqual([
      { origin: 'logs.jsonl:1', reason: '"dental" is a restricted vertical without redaction extras: add redaction.extras.dental to parley.yaml' },
      { origin: 'logs.jsonl:2', reason: 'the conversation has no language: give one with --language (en, sw, …)' },
    ]);
    const withDefault = await importConversations(input(setFile, log, { redaction, defaults: { language: 'en' } }));
    expect(withDefault.added.map((item) => item.origin)).toEqual(['logs.jsonl:2']);
  });

  it('reports a bad log line with its line before adding anything', async () => {
    const { log, setFile } = folderWith([SWAHILI, '{"conversation_id": "x", "turns": []}', 'not json']);
    const error = await importConversations(input(setFile, log)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((issue) => issue.line)).toEqual([2, 3]);
    expect(() => readFileSync(setFile)).toThrow();
  });

  it("imports a stored run's transcripts as scenario items, refusing metadata_only ones", async () => {
    const { setFile } = folderWith([]);
    const result = (id: string, extra: Partial<ScenarioResult>): ScenarioResult => ({
      scenario_id: id,
      agent: 'booking',
      gate: 'blocking',
      tags: [],
      language: 'sw',
      metadata_only: false,
      status: 'pass',
      reason: '',
      metrics: [],
      cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 },
      transcript: {
        ended_by: 'script',
        turns: [
          { role: 'user', content: 'Nataka massage, namba yangu 0712 345 678', turn: 1 },
          { role: 'assistant', content: '', turn: 1, tool_calls: [{ name: 'create_booking', args: { customer_name: 'Amina Wanjiru' } }] },
          { role: 'tool', content: '{"status":"confirmed"}', turn: 1, tool_name: 'create_booking' },
          { role: 'assistant', content: 'Asante Amina Wanjiru, imethibitishwa.', turn: 1 },
        ],
      },
      ...extra,
    });
    const imported = await importConversations({
      ...input(setFile, ''),
      source: { kind: 'run', runId: 'run-1', results: [result('spa_happy', {}), result('gbv_report', { metadata_only: true })] },
    });
    expect(imported.added).toEqual([{ id: 'cal-2026-11-001', origin: 'run run-1 scenario spa_happy' }]);
    expect(imported.refused).toEqual([{ origin: 'run run-1 scenario gbv_report', reason: 'metadata_only: its conversation never leaves the run' }]);
    expect(loadCalibrationSet(setFile).items[0]).toMatchObject({
      source: 'scenario:spa_happy',
      transcript: [
        { role: 'user', content: 'Nataka massage, namba yangu 07** *** 678' },
        { role: 'assistant', content: 'Asante <name>, imethibitishwa.' },
      ],
    });
  });
});
