import { sha256Hex } from '@parley/core';

/**
 * The order in which `reviewer` sees the items: a shuffle seeded by the reviewer's name, so it is
 * the same in every session of that reviewer (a session can be resumed) and different for each
 * reviewer (two reviewers do not tire on the same items). Each item's place comes from a hash of
 * the reviewer and the item id, so items added later slot in without reordering the others.
 *
 * @example ratingOrder(['a', 'b', 'c'], 'rev-a') // ['c', 'a', 'b'], the same on every call
 */
export function ratingOrder(itemIds: readonly string[], reviewer: string): string[] {
  const keyed = itemIds.map((id) => ({ id, key: sha256Hex(`parley-rating-order\n${reviewer}\n${id}`) }));
  keyed.sort((left, right) => (left.key < right.key ? -1 : left.key > right.key ? 1 : left.id < right.id ? -1 : 1));
  return keyed.map((entry) => entry.id);
}
