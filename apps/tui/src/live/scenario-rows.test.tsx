import { describe, expect, it } from 'vitest';
import { Box } from 'ink';
import { emptyCost, type ScenarioResult } from '@parley/core';
import { renderWithProviders } from '../test-support/render-screen.js';
import { FailureRow, ScenarioRow } from './scenario-rows.js';

const failing = (metadataOnly: boolean): ScenarioResult => ({
  scenario_id: 'mpesa_refund',
  agent: 'booking',
  gate: 'blocking',
  tags: [],
  metadata_only: metadataOnly,
  status: 'fail',
  reason: 'content_signals: forbidden "Amina, call +254 712 345 432" found in assistant message 2',
  metrics: [{ metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: false, reason: 'forbidden "Amina"' }],
  cost: emptyCost(),
});

describe('scenario rows', () => {
  it('a metadata_only scenario shows no content: at most the metric that failed', () => {
    const { lastFrame, unmount } = renderWithProviders(
      <Box flexDirection="column">
        <FailureRow result={failing(true)} idWidth={12} />
        <ScenarioRow row={{ id: 'mpesa_refund', state: 'finished', result: failing(true) }} idWidth={12} ended />
      </Box>,
    );
    const frame = lastFrame() ?? '';
    expect(frame).toContain('content_signals: [metadata_only: content withheld]');
    expect(frame).not.toContain('Amina');
    expect(frame).not.toContain('712');
    unmount();
  });

  it('other reasons pass the floor redactor (phone numbers masked)', () => {
    const { lastFrame, unmount } = renderWithProviders(<FailureRow result={failing(false)} idWidth={12} />, { size: { columns: 120, rows: 24 } });
    const frame = lastFrame() ?? '';
    expect(frame).toContain('✗ mpesa_refund fail content_signals: forbidden');
    expect(frame).toContain('+254 7** *** 432');
    expect(frame).not.toContain('712 345');
    unmount();
  });
});
