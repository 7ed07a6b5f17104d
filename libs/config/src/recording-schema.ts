import { PROVIDER_KINDS } from '@parley/core';
import * as z from 'zod';

const ToolCallSchema = z.object({
  id: z.string().optional(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
});

const UsageSchema = z.object({
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
  /** Of the input tokens, those the provider read from its prompt cache. */
  cached_input_tokens: z.number().int().min(0).optional(),
  /** Of the input tokens, those written to Anthropic's prompt cache. */
  cache_write_input_tokens: z.number().int().min(0).optional(),
});

/** One line of `recordings/<scenario_id>.jsonl`: one LLM call (docs/file-formats.md, "Recordings"). */
export const RecordingEntrySchema = z.object({
  v: z.literal(1),
  role: z.enum(['agent', 'simulator', 'judge']),
  key: z.string().regex(/^[0-9a-f]{64}$/),
  turn: z.number().int().min(0).optional(),
  /** `service`: the reply of an http/command/module agent, replayed instead of calling the agent. */
  provider: z.enum([...PROVIDER_KINDS, 'service']),
  model: z.string(),
  request: z.record(z.string(), z.unknown()),
  response: z.object({
    content: z.string(),
    tool_calls: z.array(ToolCallSchema),
    finish_reason: z.string(),
    model: z.string(),
    /** The state a service agent reported after this reply. */
    state: z.string().optional(),
  }),
  usage: UsageSchema,
  latency_ms: z.number().min(0),
  recorded_at: z.string(),
});
export type RecordingEntry = z.infer<typeof RecordingEntrySchema>;
