import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ratingOrder } from './rating-order.js';

const ids = Array.from({ length: 25 }, (_, index) => `cal-2026-11-${String(index + 1).padStart(3, '0')}`);

describe('ratingOrder', () => {
  it('is the same on every call for a reviewer, whatever order the ids come in', () => {
    const first = ratingOrder(ids, 'rev-a');
    expect(ratingOrder(ids, 'rev-a')).toEqual(first);
    expect(ratingOrder([...ids].reverse(), 'rev-a')).toEqual(first);
  });

  it('shuffles: not the file order, and a different order for each reviewer', () => {
    const revA = ratingOrder(ids, 'rev-a');
    const revB = ratingOrder(ids, 'rev-b');
    expect(revA).not.toEqual(ids);
    expect(revB).not.toEqual(revA);
    expect([...revA].sort()).toEqual(ids);
  });

  it('keeps the order of the other items when an item is added', () => {
    const before = ratingOrder(ids.slice(0, 20), 'rev-a');
    const after = ratingOrder(ids, 'rev-a');
    expect(after.filter((id) => before.includes(id))).toEqual(before);
  });

  it('is a permutation of its input (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1 })), fc.string(), (itemIds, reviewer) => {
        expect([...ratingOrder(itemIds, reviewer)].sort()).toEqual([...itemIds].sort());
      }),
    );
  });
});
