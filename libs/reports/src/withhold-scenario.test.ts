import type { ScenarioResult } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { WITHHELD } from './withhold-content.js';
import { withholdScenarioContent } from './withhold-scenario.js';

function result(overrides: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    scenario_id: 'private_chat',
    title: 'A private conversation',
    agent: 'support',
    gate: 'blocking',
    tags: ['private'],
    metadata_only: true,
    status: 'fail',
    reason: 'conversation_judge: the agent said "my secret PIN"',
    metrics: [
      {
        metric: 'conversation_judge',
        version: '1.0.0',
        score: 0.4,
        threshold: 0.7,
        passed: false,
        reason: 'quotes "my secret PIN"',
        details: { message_scores: [{ message_index: 1, score: 40, reason: 'repeats "my secret PIN"' }], baseline_score: 0.8, baseline_delta: -0.4 },
      },
    ],
    transcript: { turns: [{ role: 'user', content: 'my secret PIN', turn: 1 }], ended_by: 'script' },
    cost: { input_tokens: 1, output_tokens: 1, usd: 0, calls: 1 },
    error: { kind: 'recording_miss', message: 'closest request differs: "my secret PIN"', details: 'diff' },
    ...overrides,
  };
}

describe('withholdScenarioContent', () => {
  it('keeps status and numbers of a metadata_only result and nothing that quotes the conversation', () => {
    const withheld = withholdScenarioContent(result());
    expect(JSON.stringify(withheld)).not.toContain('secret');
    expect(withheld).not.toHaveProperty('transcript');
    expect(withheld).toMatchObject({ scenario_id: 'private_chat', title: 'A private conversation', status: 'fail', reason: `conversation_judge: ${WITHHELD}` });
    expect(withheld.metrics[0]).toMatchObject({ score: 0.4, threshold: 0.7, passed: false, reason: WITHHELD, details: { baseline_score: 0.8, baseline_delta: -0.4 } });
    expect(withheld.error).toEqual({ kind: 'recording_miss', message: WITHHELD });
  });

  it('returns any other result unchanged', () => {
    const open = result({ metadata_only: false });
    expect(withholdScenarioContent(open)).toBe(open);
  });
});
