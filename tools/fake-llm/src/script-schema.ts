/**
 * The script file of the fake LLM server (YAML or JSON): which request gets which answer.
 * This schema is the single source of truth for the format; README.md documents it for people.
 * Types are inferred from it, and the schema has no defaults or transforms, so what a test writes
 * in TypeScript and what a file holds are the same shape.
 */
import * as z from 'zod';
import { describePatternError } from './text-pattern.js';

/** A condition string: `/regex/flags`, or a literal (exact or substring, depending on the field). */
const PatternSchema = z.string().superRefine((pattern, context) => {
  const problem = describePatternError(pattern);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

const ApiKindSchema = z.enum(['openai', 'openai-responses', 'anthropic']);
export type ApiKind = z.infer<typeof ApiKindSchema>;

const MessageRoleSchema = z.enum(['user', 'assistant', 'tool']);
export type MessageRole = z.infer<typeof MessageRoleSchema>;

/** All given conditions must hold; an omitted condition matches anything. */
const RuleConditionSchema = z.strictObject({
  api: ApiKindSchema.optional(),
  /** Exact model name, or a regex. */
  model: PatternSchema.optional(),
  /** Substring of (or regex against) the system prompt. */
  system: PatternSchema.optional(),
  /** Substring of (or regex against) the content of the last message with role `user`. */
  last_user: PatternSchema.optional(),
  last_message_role: MessageRoleSchema.optional(),
  /** The last message is the result of a call to this tool. */
  last_tool: z.string().min(1).optional(),
  /** Substring of (or regex against) some message of any role except system. */
  any_message: PatternSchema.optional(),
  /** Number of messages, system prompt excluded. */
  message_count: z.number().int().min(0).optional(),
  /** Request headers (names case-insensitive) whose value equals (or matches) the given one. */
  header: z.record(z.string(), PatternSchema).optional(),
});
export type RuleCondition = z.infer<typeof RuleConditionSchema>;

const ScriptedToolCallSchema = z.strictObject({
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()).optional(),
  /** Fixed call id; by default one is derived from a per-server counter. */
  id: z.string().min(1).optional(),
});

/** JSON content is allowed so that judge answers can be written as YAML maps instead of quoted JSON. */
const ReplyContentSchema = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]);

const ScriptedReplySchema = z.strictObject({
  content: ReplyContentSchema.optional(),
  tool_calls: z.array(ScriptedToolCallSchema).optional(),
  /** Reported token usage; a missing side is estimated as ceil(characters / 4), at least 1. */
  usage: z
    .strictObject({
      input_tokens: z.number().int().min(0).optional(),
      output_tokens: z.number().int().min(0).optional(),
      /**
       * Of the input tokens, how many the provider read from its prompt cache: OpenAI reports them
       * as `prompt_tokens_details.cached_tokens` on every call; Anthropic as
       * `cache_read_input_tokens` only when the request marked its system prompt with `cache_control`.
       */
      cached_input_tokens: z.number().int().min(0).optional(),
      /**
       * Of the input tokens, how many Anthropic wrote to its prompt cache (`cache_creation_input_tokens`,
       * left out of `input_tokens`), only when the request marked its system prompt with `cache_control`.
       * OpenAI reports no cache writes.
       */
      cache_write_input_tokens: z.number().int().min(0).optional(),
    })
    .optional(),
  /** In either provider's words (`stop`/`end_turn`, `length`/`max_tokens`…); translated per API. */
  finish_reason: z.string().min(1).optional(),
});
export type ScriptedReply = z.infer<typeof ScriptedReplySchema>;

const FaultKindSchema = z.enum(['status', 'hang', 'malformed', 'reset']);
export type FaultKind = z.infer<typeof FaultKindSchema>;

const FaultSchema = z
  .strictObject({
    kind: FaultKindSchema,
    /** HTTP status for `kind: status`. */
    status: z.number().int().min(400).max(599).optional(),
    /** Seconds; sent as `Retry-After` (rounded up) and `retry-after-ms`. */
    retry_after: z.number().min(0).optional(),
    /** Error message in the provider's error body. */
    message: z.string().optional(),
    /** Fault only the first N matching calls, then answer with `reply`/`replies`. */
    times: z.number().int().min(1).optional(),
  })
  .superRefine((fault, context) => {
    if (fault.kind === 'status' && fault.status === undefined) {
      context.addIssue({ code: 'custom', path: ['status'], message: 'a fault of kind "status" needs a status, e.g. 429' });
    }
    if (fault.kind !== 'status' && fault.status !== undefined) {
      context.addIssue({ code: 'custom', path: ['status'], message: `status only applies to kind "status", not "${fault.kind}"` });
    }
  });
export type Fault = z.infer<typeof FaultSchema>;

const RuleSchema = z
  .strictObject({
    /** Shown in the request log instead of the rule's index. */
    name: z.string().min(1).optional(),
    when: RuleConditionSchema.optional(),
    reply: ScriptedReplySchema.optional(),
    /** One reply per match, in order; the last one repeats. */
    replies: z.array(ScriptedReplySchema).min(1).optional(),
    latency_ms: z.number().min(0).optional(),
    /** The rule answers at most this many times, then later rules get the request. */
    times: z.number().int().min(1).optional(),
    fault: FaultSchema.optional(),
  })
  .superRefine((rule, context) => {
    const answers = rule.reply !== undefined || rule.replies !== undefined;
    if (rule.reply !== undefined && rule.replies !== undefined) {
      context.addIssue({ code: 'custom', path: ['replies'], message: 'give either reply or replies, not both' });
    }
    if (!answers && rule.fault === undefined) {
      context.addIssue({ code: 'custom', message: 'a rule needs reply, replies or fault' });
    }
    if (!answers && rule.fault?.times !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['fault', 'times'],
        message: 'fault.times needs reply or replies to answer with once the faults are used up',
      });
    }
  });
export type Rule = z.infer<typeof RuleSchema>;

export const FakeScriptSchema = z.strictObject({
  defaults: z.strictObject({ latency_ms: z.number().min(0).optional() }).optional(),
  /** The first rule whose `when` matches and that is not used up answers. */
  rules: z.array(RuleSchema).optional(),
  /** Answer when no rule matches; without it the server answers 400 naming the last user message. */
  fallback: ScriptedReplySchema.optional(),
});
export type FakeScript = z.infer<typeof FakeScriptSchema>;
