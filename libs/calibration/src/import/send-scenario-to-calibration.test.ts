import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScenarioResult } from '@parley/core';
import { SuiteSchema } from '@parley/config';
import { describe, expect, it } from 'vitest';
import { calibrationFolder, loadCalibrationFolder } from '../calibration-folder.js';
import { startRatingSession } from '../session/rating-session.js';
import { loadCalibrationSet } from '../set-file/calibration-set-file.js';
import { EXAMPLE_SET_TEXT } from '../test-support/calibration-fixture.js';
import type { SuiteSettings } from '../suite-settings.js';
import { sendScenarioToCalibration, type SendToCalibrationInput } from './send-scenario-to-calibration.js';

const NOW = new Date('2026-11-26T10:00:00Z');

function result(extra: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    scenario_id: 'spa_happy',
    agent: 'booking',
    gate: 'blocking',
    tags: [],
    language: 'sw',
    metadata_only: false,
    status: 'fail',
    reason: 'content_signals failed',
    metrics: [{ metric: 'conversation_judge', version: '1.0.0', score: 0.4, threshold: 0.7, passed: false, reason: 'too curt' }],
    cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 },
    transcript: {
      ended_by: 'script',
      turns: [
        { role: 'user', content: 'Nataka massage, mimi ni Zawadi Otieno, namba 0712 345 678', turn: 1 },
        { role: 'assistant', content: '', turn: 1, tool_calls: [{ name: 'create_booking', args: { customer_name: 'Zawadi Otieno' } }] },
        { role: 'tool', content: '{"status":"confirmed"}', turn: 1, tool_name: 'create_booking' },
        { role: 'assistant', content: 'Asante Zawadi Otieno, imethibitishwa saa 10:00.', turn: 1 },
      ],
    },
    ...extra,
  };
}

function suite(redaction: unknown = undefined): SuiteSettings {
  return { dir: '/suite', config: SuiteSchema.parse({ suite: 'spa', agents: {}, ...(redaction !== undefined ? { redaction } : {}) }) };
}

function input(dir: string, extra: Partial<SendToCalibrationInput> = {}): SendToCalibrationInput {
  return { calibrationDir: dir, cwd: '/', runId: 'run-1', result: result(), suite: suite(), env: {}, now: NOW, ...extra };
}

describe('sendScenarioToCalibration', () => {
  it('into a folder without calibration files makes a complete set: a starter rubric of the set’s version, so the item can be rated', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'parley-send-')), 'calibration');
    const outcome = await sendScenarioToCalibration(input(dir));
    expect(outcome).toMatchObject({ kind: 'added', rubric: join(dir, 'rubric.md') });
    const { set, rubric } = loadCalibrationFolder(calibrationFolder(dir, '/'));
    expect(rubric.version).toBe(set.rubric_version);
    for (const axis of set.axes) expect(rubric.text).toContain(`## ${axis}:`);
    const session = startRatingSession(set, 'rev-a');
    expect(session.items.map((item) => item.id)).toEqual(['cal-2026-11-001']);
    // A second item leaves the rubric alone (a team's edits are never overwritten).
    writeFileSync(join(dir, 'rubric.md'), readFileSync(join(dir, 'rubric.md'), 'utf8').replace('(starter)', '(ours)'));
    const second = await sendScenarioToCalibration(input(dir, { result: result({ scenario_id: 'other', transcript: { ended_by: 'script', turns: [{ role: 'user', content: 'Habari', turn: 1 }, { role: 'assistant', content: 'Karibu!', turn: 1 }] } }) }));
    expect(second).toMatchObject({ kind: 'added' });
    expect(second).not.toHaveProperty('rubric');
    expect(readFileSync(join(dir, 'rubric.md'), 'utf8')).toContain('(ours)');
  });

  it('adds the masked transcript as an unrated scenario item, creating the set when there is none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-send-'));
    const outcome = await sendScenarioToCalibration(input(dir));
    const file = join(dir, 'human_labelled.yaml');
    expect(outcome).toEqual({ kind: 'added', id: 'cal-2026-11-001', file, rubric: join(dir, 'rubric.md') });
    const set = loadCalibrationSet(file);
    expect(set.items).toEqual([
      {
        id: 'cal-2026-11-001',
        added: '2026-11-26',
        source: 'scenario:spa_happy',
        language: 'sw',
        transcript: [
          { role: 'user', content: 'Nataka massage, mimi ni <name>, namba 07** *** 678' },
          { role: 'assistant', content: 'Asante <name>, imethibitishwa saa 10:00.' },
        ],
        ratings: [],
      },
    ]);
    const text = readFileSync(file, 'utf8');
    for (const personal of ['Zawadi', 'Otieno', '345 678']) expect(text).not.toContain(personal);
    // Judge scores never reach the reviewers' file.
    expect(text).not.toContain('too curt');
  });

  it('is idempotent: sending the same transcript again names the item it already is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-send-'));
    writeFileSync(join(dir, 'human_labelled.yaml'), EXAMPLE_SET_TEXT);
    const first = await sendScenarioToCalibration(input(dir));
    const second = await sendScenarioToCalibration(input(dir, { runId: 'run-2' }));
    expect(first).toMatchObject({ kind: 'added', id: 'cal-2026-11-002' });
    expect(second).toMatchObject({ kind: 'already', id: 'cal-2026-11-002' });
    const set = loadCalibrationSet(join(dir, 'human_labelled.yaml'));
    expect(set.items.map((item) => item.id)).toEqual(['cal-2026-11-001', 'cal-2026-11-002']);
    // The reviewer's comments and the first item's rating are kept.
    expect(readFileSync(join(dir, 'human_labelled.yaml'), 'utf8')).toContain('# Picked by rev-a: a good Swahili opening.');
  });

  it('refuses metadata_only scenarios and restricted verticals without extras, writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-send-'));
    expect(await sendScenarioToCalibration(input(dir, { result: result({ metadata_only: true }) }))).toEqual({
      kind: 'refused',
      reason: 'metadata_only: its conversation never leaves the run',
    });
    expect(await sendScenarioToCalibration(input(dir, { suite: suite({ restricted_verticals: ['dental'] }), vertical: 'dental' }))).toEqual({
      kind: 'refused',
      reason: '"dental" is a restricted vertical without redaction extras: add redaction.extras.dental to parley.yaml',
    });
    expect(existsSync(join(dir, 'human_labelled.yaml'))).toBe(false);
  });

  it('skips a result the run kept no transcript of', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-send-'));
    expect(await sendScenarioToCalibration(input(dir, { result: result({ transcript: undefined }) }))).toEqual({
      kind: 'skipped',
      reason: 'the run kept no transcript',
    });
  });
});
