import * as z from 'zod';
import { readJsonLines } from './json-lines.js';

/** The name of the score the WhatsApp 👍/👎/💬 buttons write (docs/file-formats.md, "Production logs"). */
export const FEEDBACK_SCORE_NAME = 'user_feedback';

/** What one piece of feedback says about a conversation. */
export type FeedbackVerdict = 'negative' | 'positive' | 'neutral';

export interface Feedback {
  conversation_id: string;
  /** The Langfuse trace the score was given on, when it differs from the conversation id. */
  trace_id?: string;
  verdict: FeedbackVerdict;
  /** -1, 0 or 1 (👎, 💬 or unknown, 👍). */
  score: number;
  comment?: string;
  at?: Date;
  /** Where it was read: `feedback.jsonl:12`, or `langfuse score <id>`. */
  source: string;
  /** The value as given, when it is none of the known ones (counted as neutral; commands warn). */
  unrecognised?: string;
}

const FeedbackValue = z.union([z.number(), z.string(), z.boolean(), z.null()]);

/**
 * One line of `--feedback FILE`: the conversation and its `user_feedback` (👍/👎, ±1, true/false,
 * or words such as `thumbs_down`), with an optional comment. The Langfuse score shape
 * (`name: user_feedback`, `value`, `traceId`/`sessionId`) is accepted too, so an export of
 * Langfuse scores can be used as it is. Lines of other scores are ignored.
 */
const FeedbackLineSchema = z
  .looseObject({
    conversation_id: z.string().min(1).optional(),
    traceId: z.string().min(1).optional(),
    sessionId: z.string().min(1).optional(),
    user_feedback: FeedbackValue.optional(),
    name: z.string().optional(),
    value: FeedbackValue.optional(),
    stringValue: z.string().optional(),
    comment: z.string().nullable().optional(),
    timestamp: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((line) => line.conversation_id ?? line.sessionId ?? line.traceId, { message: 'needs a conversation_id' });

/** Reads `--feedback FILE` (JSON lines); a bad line is a ConfigError with its line. */
export function readFeedbackFile(path: string): Feedback[] {
  const feedback: Feedback[] = [];
  for (const { line, value } of readJsonLines(path, FeedbackLineSchema, 'feedback')) {
    if (value.user_feedback === undefined && value.name !== FEEDBACK_SCORE_NAME) continue;
    const raw = value.user_feedback !== undefined ? value.user_feedback : (value.stringValue ?? value.value);
    const conversationId = value.conversation_id ?? value.sessionId ?? value.traceId;
    if (conversationId === undefined) continue;
    feedback.push(
      makeFeedback({
        conversationId,
        ...(value.traceId !== undefined ? { traceId: value.traceId } : {}),
        value: raw ?? null,
        ...(value.comment ? { comment: value.comment } : {}),
        ...(value.timestamp ? { at: new Date(value.timestamp) } : {}),
        source: `${path}:${line}`,
      }),
    );
  }
  return feedback;
}

const NEGATIVE_WORDS = new Set(['👎', '-1', 'down', 'thumbs_down', 'thumbsdown', 'negative', 'bad', 'no', 'false', 'dislike']);
const POSITIVE_WORDS = new Set(['👍', '1', '+1', 'up', 'thumbs_up', 'thumbsup', 'positive', 'good', 'yes', 'true', 'like']);
const NEUTRAL_WORDS = new Set(['💬', '0', '', 'neutral', 'comment']);

/** A feedback word as the word lists hold it: lower case, without emoji variation selectors, `thumbs-down` / `thumbs down` as `thumbs_down`. */
function feedbackWord(value: string): string {
  return value.trim().toLowerCase().replace(/\ufe0f/g, '').replace(/(?<=\p{L})[\s-]+(?=\p{L})/gu, '_');
}

/**
 * Whether a feedback value is one Parley knows (so a neutral verdict is meant, not a guess): ±1
 * and 0, booleans, null, and the words of the lists. `7` or `"maybe"` are not.
 */
function isKnownFeedbackValue(value: number | string | boolean | null): boolean {
  if (typeof value === 'number') return value === -1 || value === 0 || value === 1;
  if (typeof value === 'boolean' || value === null) return true;
  const word = feedbackWord(value);
  return NEGATIVE_WORDS.has(word) || POSITIVE_WORDS.has(word) || NEUTRAL_WORDS.has(word) || /^-\d+(\.\d+)?$/.test(word);
}

/**
 * The verdict of a feedback value: numbers by sign, booleans (false is 👎), and the words and
 * emoji buttons write. 💬 and anything unrecognised is neutral: only a comment makes it count.
 *
 * @example feedbackVerdict('👎') === 'negative'; feedbackVerdict(1) === 'positive'; feedbackVerdict('💬') === 'neutral'
 */
export function feedbackVerdict(value: number | string | boolean | null): FeedbackVerdict {
  if (typeof value === 'number') return value < 0 ? 'negative' : value > 0 ? 'positive' : 'neutral';
  if (typeof value === 'boolean') return value ? 'positive' : 'negative';
  if (value === null) return 'neutral';
  const word = feedbackWord(value);
  if (NEGATIVE_WORDS.has(word) || /^-\d+(\.\d+)?$/.test(word)) return 'negative';
  if (POSITIVE_WORDS.has(word)) return 'positive';
  return 'neutral';
}

export function makeFeedback(input: {
  conversationId: string;
  traceId?: string;
  value: number | string | boolean | null;
  comment?: string;
  at?: Date;
  source: string;
}): Feedback {
  const verdict = feedbackVerdict(input.value);
  const comment = input.comment?.trim();
  return {
    conversation_id: input.conversationId,
    ...(input.traceId !== undefined && input.traceId !== input.conversationId ? { trace_id: input.traceId } : {}),
    verdict,
    score: verdict === 'negative' ? -1 : verdict === 'positive' ? 1 : 0,
    ...(comment ? { comment } : {}),
    ...(input.at && !Number.isNaN(input.at.getTime()) ? { at: input.at } : {}),
    source: input.source,
    ...(isKnownFeedbackValue(input.value) ? {} : { unrecognised: JSON.stringify(input.value) }),
  };
}

/**
 * Whether a conversation's feedback asks for promotion (docs/privacy.md,
 * "Promoting production feedback"): any 👎, or a comment that came without a 👍 (the 💬 button). A 👍
 * with a kind comment is praise, not a regression to test.
 */
export function wantsPromotion(feedback: readonly Feedback[]): boolean {
  return feedback.some((item) => item.verdict === 'negative' || (item.verdict === 'neutral' && item.comment !== undefined));
}
