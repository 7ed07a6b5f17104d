import { describe, expect, it } from 'vitest';
import type { CellItem } from '@parley/calibration';
import { cellStatus } from './kappa-cell-screen.js';

function row(itemId: string, axis: string): CellItem {
  return { ratings: { itemId, axis, humans: [] }, inCell: new Set(['judge', 'rev-a']) } as unknown as CellItem;
}

describe('the kappa cell screen’s count of items', () => {
  it('on overall counts distinct items, not item×axis rows', () => {
    const rows = [row('cal-1', 'intent_comprehension'), row('cal-1', 'response_naturalness'), row('cal-2', 'intent_comprehension')];
    expect(cellStatus(rows, 4, true)).toBe('2 items (3 item·axis rows) · 4 pairs');
  });

  it('on one axis an item is a row', () => {
    expect(cellStatus([row('cal-1', 'intent_comprehension')], 1, false)).toBe('1 item · 1 pair');
  });
});
