import { describe, expect, it } from 'vitest';
import { metricKeys } from './metric-keys.js';

describe('metricKeys', () => {
  it('names repeated metrics by occurrence', () => {
    expect(metricKeys([{ metric: 'tool_correctness' }, { metric: 'content_signals' }, { metric: 'tool_correctness' }, { metric: 'tool_correctness' }])).toEqual([
      'tool_correctness',
      'content_signals',
      'tool_correctness#2',
      'tool_correctness#3',
    ]);
  });

  it('is empty for no metrics', () => {
    expect(metricKeys([])).toEqual([]);
  });
});
