/**
 * Ids in answers come from a per-server counter, never from randomness, so that recording the
 * same conversation twice against the fake produces byte-identical cassettes.
 */

/** `000042` for call 42: fixed width keeps ids sortable in logs. */
export function padSequence(sequence: number): string {
  return String(sequence).padStart(6, '0');
}

/**
 * `created` of every OpenAI completion (2026-01-01T00:00:00Z): a fixed instant for the same
 * reason the ids are counters.
 */
export const FAKE_CREATED_SECONDS = 1_767_225_600;
