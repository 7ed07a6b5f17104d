import type { RedactionConfig } from '@parley/config';
import type { LoggedConversation } from '@parley/production';
import { restrictedVerticalProblem, type Redactor } from '@parley/redaction';
import { languageOf, readableMessages, type CandidateDefaults, type ItemCandidate, type PassedOver } from './item-candidate.js';

export type CandidateOutcome = { candidate: ItemCandidate } | { refused: PassedOver } | { skipped: PassedOver };

/**
 * A production conversation (a line of the JSON-lines conversation log) as a masked calibration
 * item. Names its structured fields reveal (`customer.name`, a tool call's `customer_name`, a tool
 * result) are masked wherever they occur. A restricted vertical without redaction extras is refused:
 * nothing of it is written (docs/privacy.md, "Restricted verticals").
 */
export function loggedConversationCandidate(
  conversation: LoggedConversation,
  origin: string,
  context: { redactor: Redactor; redaction: RedactionConfig | undefined; defaults: CandidateDefaults },
): CandidateOutcome {
  const vertical = conversation.vertical ?? context.defaults.vertical;
  const restricted = restrictedVerticalProblem(context.redaction, vertical);
  if (restricted !== undefined) return { refused: { origin, reason: restricted } };
  const language = languageOf(conversation.language, context.defaults);
  if (language === undefined) return { refused: { origin, reason: 'the conversation has no language: give one with --language (en, sw, …)' } };

  const learned = [
    ...context.redactor.namesIn(conversation),
    ...conversation.turns.flatMap((turn) => [
      ...(turn.tool_calls ?? []).flatMap((call) => context.redactor.namesIn(call.args)),
      ...(turn.role === 'tool' ? context.redactor.namesIn(turn.content) : []),
    ]),
  ];
  const redactor = context.redactor.withNames(learned);
  const transcript = readableMessages(conversation.turns, (text) => redactor.text(text));
  if (!transcript.some((message) => message.role === 'assistant')) return { skipped: { origin, reason: 'no assistant message to rate' } };
  return { candidate: { origin, source: 'production', language, ...(vertical !== undefined ? { vertical } : {}), transcript } };
}
