import { sha256Hex } from '@parley/core';
import { escapeVariables, type ScenarioFile } from '@parley/config';
import type { Redactor } from '@parley/redaction';
import type { LoggedConversation } from './conversation-log.js';
import type { Feedback } from './feedback.js';
import { productionExchanges, type ProductionReply } from './production-exchanges.js';

/** The tag every promoted scenario carries, so `--tag from_production` runs them all. */
export const PROMOTED_TAG = 'from_production';

/**
 * The id of the scenario promoted from a conversation: `prod_` and 12 hex of the sha256 of its
 * id. Stable, so promoting the same conversation twice finds the first file and skips; opaque,
 * because conversation ids are often phone numbers.
 */
export function promotedScenarioId(conversationId: string): string {
  return `prod_${sha256Hex(conversationId).slice(0, 12)}`;
}

export interface PromotedScenario {
  /** The scenario data, masked, in the key order it is written. */
  scenario: ScenarioFile;
  /** The masked replies per user turn, for the recording. */
  replies: ProductionReply[][];
  /** Comment lines for the top of the file. */
  header: string;
  notes: string[];
}

export interface PromotedScenarioInput {
  conversation: LoggedConversation;
  feedback: readonly Feedback[];
  agent: string;
  /** The suite's redactor; names found in the conversation's structured fields are added to it. */
  redactor: Redactor;
  now: Date;
}

/**
 * A candidate regression scenario from a production conversation (docs/privacy.md,
 * "Promoting production feedback"): `gate: advisory` until a person reviews it, the real user turns
 * as `user.opening`/`user.script`, the tool results the agent got as mocks, and the agent's real
 * replies and the feedback as `reference` for reviewers and judges. Everything that came from the
 * conversation is masked, with the names the conversation's own structured fields reveal
 * (`customer.name`, a tool call's `customer_name`) masked everywhere else too. Tool arguments
 * become their sha256.
 */
export function promotedScenario(input: PromotedScenarioInput): PromotedScenario | { problem: string } {
  const { conversation } = input;
  const learned = [
    ...input.redactor.namesIn(conversation),
    ...conversation.turns.flatMap((turn) => (turn.role === 'tool' ? input.redactor.namesIn(turn.content) : [])),
  ];
  const redactor = input.redactor.withNames(learned);
  const { exchanges, droppedBeforeFirstUser } = productionExchanges(conversation);
  if (exchanges.length === 0) return { problem: 'no user message to replay' };

  const userTurns = exchanges.map((exchange) => redactor.text(exchange.user));
  const replies = exchanges.map((exchange) =>
    exchange.replies.map((reply) => ({ ...reply, content: redactor.text(reply.content), tool_calls: reply.tool_calls.map(redactor.toolCall) })),
  );
  const tools: ScenarioFile['tools'] = {};
  for (const result of exchanges.flatMap((exchange) => exchange.toolResults)) {
    if (Object.hasOwn(tools, result.name)) continue;
    tools[result.name] = { returns: redactedToolResult(result.content, redactor) };
  }

  const comments = input.feedback.flatMap((item) => (item.comment !== undefined ? [redactor.text(item.comment)] : []));
  const negative = input.feedback.some((item) => item.verdict === 'negative');
  const id = promotedScenarioId(conversation.conversation_id);
  const language = conversation.language !== undefined && /^[a-z]{2,3}$/.test(conversation.language) ? conversation.language : undefined;
  // A `{{name}}` someone typed in production is text, not a variable of the scenario.
  const scenario: ScenarioFile = escapeVariables({
    id,
    title: titleFor(negative, comments[0]),
    agent: input.agent,
    ...(language !== undefined ? { language } : {}),
    tags: [PROMOTED_TAG, negative ? 'negative_feedback' : 'feedback_comment'],
    gate: 'advisory',
    ...(conversation.vertical !== undefined ? { vertical: conversation.vertical } : {}),
    metadata_only: false,
    user: { opening: userTurns[0]!, script: userTurns.slice(1) },
    tools,
    expect: [],
    reference: {
      source: 'production',
      conversation: `sha256:${sha256Hex(conversation.conversation_id)}`,
      feedback: input.feedback.map((item) => ({
        score: item.score,
        ...(item.comment !== undefined ? { comment: redactor.text(item.comment) } : {}),
        ...(item.at !== undefined ? { at: item.at.toISOString() } : {}),
      })),
      replies: replies.flatMap((turnReplies, index) => {
        const text = turnReplies.map((reply) => reply.content).filter((content) => content.trim() !== '').join('\n\n');
        return text === '' ? [] : [{ turn: index + 1, content: text }];
      }),
    },
  });
  const notes = droppedBeforeFirstUser > 0 ? [`${droppedBeforeFirstUser} agent messages before the first user message were left out`] : [];
  const header = [
    `Promoted from production by \`parley promote\` on ${input.now.toISOString().slice(0, 10)}${conversation.tenant ? ` (tenant ${redactor.text(conversation.tenant)})` : ''}.`,
    'Masked with the suite\'s redactor: review it, add expectations, then make it blocking.',
    'The recording beside it replays the agent\'s real (masked) replies; re-record it live to test the current agent.',
    ...notes,
  ].join('\n');
  return { scenario, replies, header, notes };
}

function titleFor(negative: boolean, comment: string | undefined): string {
  const what = negative ? 'Production conversation rated 👎' : 'Production conversation with a feedback comment';
  if (comment === undefined) return what;
  const oneLine = comment.replace(/\s+/g, ' ').trim();
  return `${what}: "${oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine}"`;
}

/** A tool result as a mock: parsed JSON redacted structurally, else the redacted text. */
function redactedToolResult(content: string, redactor: Redactor): unknown {
  try {
    return redactor.value(JSON.parse(content));
  } catch {
    return redactor.text(content);
  }
}
