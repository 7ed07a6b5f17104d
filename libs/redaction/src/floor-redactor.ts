import { createRedactor, type Redactor } from './redactor.js';

let floor: Redactor | undefined;

/**
 * The redactor with the floor rules only: what every output gets when its writer was given no
 * suite redactor. Built once; redactors hold no state that changes.
 */
export function floorRedactor(): Redactor {
  return (floor ??= createRedactor());
}
