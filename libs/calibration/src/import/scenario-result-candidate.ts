import type { RedactionConfig } from '@parley/config';
import type { ScenarioResult } from '@parley/core';
import { restrictedVerticalProblem, type Redactor } from '@parley/redaction';
import type { CandidateOutcome } from './logged-conversation-candidate.js';
import { languageOf, readableMessages, type CandidateDefaults } from './item-candidate.js';

/**
 * A stored run's transcript (`--from-run ID`) as a masked calibration item with source
 * `scenario:<id>`. A `metadata_only` scenario is refused: its content never leaves the run.
 */
export function scenarioResultCandidate(
  result: ScenarioResult,
  origin: string,
  context: { redactor: Redactor; redaction: RedactionConfig | undefined; defaults: CandidateDefaults },
): CandidateOutcome {
  if (result.metadata_only) return { refused: { origin, reason: 'metadata_only: its conversation never leaves the run' } };
  const vertical = context.defaults.vertical;
  const restricted = restrictedVerticalProblem(context.redaction, vertical);
  if (restricted !== undefined) return { refused: { origin, reason: restricted } };
  if (result.transcript === undefined || result.transcript.turns.length === 0) return { skipped: { origin, reason: 'the run kept no transcript' } };
  const language = languageOf(result.language, context.defaults);
  if (language === undefined) return { refused: { origin, reason: 'the scenario has no language: give one with --language (en, sw, …)' } };
  // transcript() learns names from tool arguments and results and masks them in every message.
  const masked = context.redactor.transcript(result.transcript);
  const transcript = readableMessages(masked.turns, (text) => text);
  if (!transcript.some((message) => message.role === 'assistant')) return { skipped: { origin, reason: 'no assistant message to rate' } };
  return { candidate: { origin, source: `scenario:${result.scenario_id}`, language, ...(vertical !== undefined ? { vertical } : {}), transcript } };
}
