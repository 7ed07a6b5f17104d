import type { CalibrationMessage } from '@parley/config';

/** A masked conversation ready to become an unrated calibration item. */
export interface ItemCandidate {
  /** Where it came from, for messages: `logs.jsonl:4`, `run 20261126-… scenario spa_happy`. */
  origin: string;
  /** `production`, or `scenario:<id>` for a stored run's transcript. */
  source: string;
  language: string;
  vertical?: string;
  transcript: CalibrationMessage[];
}

/** A conversation that is not imported, and why. */
export interface PassedOver {
  origin: string;
  reason: string;
}

/** Language and vertical to assume where a conversation does not say (`--language`, `--vertical`). */
export interface CandidateDefaults {
  language?: string;
  vertical?: string;
}

const LANGUAGE_CODE = /^[a-z]{2,3}$/;

/** The conversation's own language when it is an ISO 639 code, else the default. */
export function languageOf(own: string | undefined, defaults: CandidateDefaults): string | undefined {
  if (own !== undefined && LANGUAGE_CODE.test(own)) return own;
  return defaults.language;
}

/** Only what a rater reads: user and assistant text (tool traffic and tool-call-only steps dropped). */
export function readableMessages(turns: ReadonlyArray<{ role: string; content: string }>, mask: (text: string) => string): CalibrationMessage[] {
  const messages: CalibrationMessage[] = [];
  for (const turn of turns) {
    if ((turn.role !== 'user' && turn.role !== 'assistant') || turn.content.trim() === '') continue;
    messages.push({ role: turn.role, content: mask(turn.content) });
  }
  return messages;
}
