import { sha256Hex } from '@parley/core';
import { uuidFromSeed } from '@parley/langfuse';

/**
 * Ids of everything an export sends, derived from what they describe, so exporting the same run
 * again sends the same ids and the backend updates instead of adding (Langfuse upserts
 * observations by span id and scores by id; OTLP collectors deduplicate by trace and span id).
 */

/** 32 hex characters (16 bytes, never all zero): the W3C trace id of a scenario's conversation in a run. */
export function conversationTraceId(runId: string, scenarioId: string): string {
  return nonZero(sha256Hex(`parley:trace:${runId}:${scenarioId}`).slice(0, 32));
}

/** 16 hex characters: the span of the conversation (`root`) or of its n-th call (0-based). */
export function conversationSpanId(runId: string, scenarioId: string, span: 'root' | number): string {
  return nonZero(sha256Hex(`parley:span:${runId}:${scenarioId}:${span}`).slice(0, 16));
}

/**
 * A score's id, shaped like a UUID: one per metric result of a scenario (`position` tells apart a
 * metric listed twice, once from the defaults and once by the scenario).
 */
export function metricScoreId(runId: string, scenarioId: string, metric: string, position: number): string {
  return uuidFromSeed(`parley:score:${runId}:${scenarioId}:${position}:${metric}`);
}

/** An all-zero id is invalid in OTLP; a sha256 prefix of zeros is astronomically unlikely, but cheap to rule out. */
function nonZero(hex: string): string {
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}
