import { PROVIDER_KINDS } from '@parley/core';
import * as z from 'zod';
import { ExpectationSchema, GateSchema, ThresholdingSchema } from './expectation-schema.js';
import { RedactionSchema } from './redaction-schema.js';

const ExpectList = z.array(ExpectationSchema);

const PromptAgentSchema = z.strictObject({
  kind: z.enum(PROVIDER_KINDS),
  model: z.string().min(1),
  system_prompt: z.string().optional(),
  tools: z.string().optional(),
  base_url: z.string().optional(),
  api_key_env: z.string().optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  seed: z.number().int().optional(),
  /** Tool-call rounds allowed within one user turn before the turn is cut off. */
  max_tool_rounds: z.number().int().positive().optional(),
  /**
   * Offers the agent a tool to report its conversation state (its FSM state), so `state_path`
   * works for prompt agents: `true`, or `{ name, states }` to rename the tool or list the states.
   */
  state_tool: z
    .union([
      z.literal(true),
      z.strictObject({
        name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'tool names use letters, digits, _ and - (at most 64)').optional(),
        states: z.array(z.string().min(1)).min(1).optional(),
      }),
    ])
    .optional(),
  expect: ExpectList.optional(),
});

const HttpAgentSchema = z.strictObject({
  kind: z.literal('http'),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
  request: z.record(z.string(), z.unknown()).optional(),
  response: z.record(z.string(), z.string()).optional(),
  timeout_ms: z.number().int().positive().optional(),
  expect: ExpectList.optional(),
});

const CommandAgentSchema = z.strictObject({
  kind: z.literal('command'),
  command: z.array(z.string()).min(1),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  timeout_ms: z.number().int().positive().optional(),
  expect: ExpectList.optional(),
});

const ModuleAgentSchema = z.strictObject({
  kind: z.literal('module'),
  module: z.string().min(1),
  export: z.string().optional(),
  timeout_ms: z.number().int().positive().optional(),
  expect: ExpectList.optional(),
});

const AgentSchema = z.discriminatedUnion('kind', [
  PromptAgentSchema,
  HttpAgentSchema,
  CommandAgentSchema,
  ModuleAgentSchema,
]);
export type AgentConfig = z.infer<typeof AgentSchema>;
export type PromptAgentConfig = z.infer<typeof PromptAgentSchema>;

const ModelRefSchema = z.strictObject({
  provider: z.enum(PROVIDER_KINDS),
  model: z.string().min(1),
  temperature: z.number().min(0).max(2).optional(),
  seed: z.number().int().optional(),
  base_url: z.string().optional(),
  api_key_env: z.string().optional(),
  sample: z.number().min(0).max(1).optional(),
});
export type ModelRef = z.infer<typeof ModelRefSchema>;

export const SuiteSchema = z.strictObject({
  suite: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'suite names use letters, digits, _ . and -'),
  scenarios: z.string().default('scenarios/**/*.yaml'),
  recordings: z.string().default('recordings'),
  metrics: z.string().default('metrics'),
  agents: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), AgentSchema),
  defaults: z.strictObject({ expect: ExpectList.default([]) }).optional(),
  /** A comparison run by default: every selected scenario runs against each of these agents (`--agent` replaces the list). */
  matrix: z.strictObject({ agents: z.array(z.string().min(1)).min(1) }).optional(),
  /** The model that plays the user; `max_tokens` bounds each of its answers (and so its worst case under a budget). */
  simulator: ModelRefSchema.extend({ max_tokens: z.number().int().positive().optional() }).optional(),
  judge: z
    .strictObject({
      primary: ModelRefSchema.optional(),
      cross_check: ModelRefSchema.optional(),
      /**
       * A failing verdict is asked again: N re-asks of the primary until a majority of N decides,
       * or a panel of other judge models, each asked once, the majority of primary and panel deciding.
       */
      votes_on_fail: z.union([z.number().int().min(1), z.array(ModelRefSchema).min(1)]).optional(),
    })
    .optional(),
  settings: z
    .strictObject({
      concurrency: z.number().int().min(1).max(256).optional(),
      budget_usd: z.number().min(0).optional(),
      gate: GateSchema.optional(),
      thresholding: ThresholdingSchema.optional(),
      timeout_ms: z.number().int().positive().optional(),
      /** Wall-clock limit of one scenario (conversation and hooks); the scenario is an `error` past it. */
      scenario_timeout_ms: z.number().int().positive().optional(),
      /**
       * How much run history to keep (`parley runs prune`, and after each run): the newest
       * `keep_runs` runs and/or those of the last `keep_days` days. Absent: the last 200 runs;
       * `{}`: every run.
       */
      history: z
        .strictObject({
          keep_runs: z.number().int().min(1).optional(),
          keep_days: z.number().positive().optional(),
        })
        .optional(),
      /**
       * Where the store is: `url_env` names the environment variable that holds a team store's
       * PostgreSQL URL (never the URL itself: it carries a password). `PARLEY_DATABASE_URL` wins
       * when both are set. Absent: `.parley/parley.db`.
       */
      store: z
        .strictObject({
          url_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name: letters, digits and _, not starting with a digit'),
        })
        .optional(),
      /** Retries of failed model calls (429, 5xx, timeouts, connection errors, malformed bodies). */
      retries: z
        .strictObject({
          max: z.number().int().min(0).max(20).optional(),
          base_delay_ms: z.number().int().min(0).optional(),
          max_delay_ms: z.number().int().min(0).optional(),
        })
        .optional(),
      /** Per provider kind (openai, openai-responses, anthropic, openai-compatible): calls in flight, requests and tokens per minute. */
      rate_limits: z
        .partialRecord(
          z.enum(PROVIDER_KINDS),
          z.strictObject({
            concurrency: z.number().int().min(1).optional(),
            requests_per_minute: z.number().int().min(1).optional(),
            tokens_per_minute: z.number().int().min(1).optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  isolation: z
    .strictObject({
      sweep: z.string().optional(),
      setup: z.string().optional(),
      teardown: z.string().optional(),
    })
    .optional(),
  redaction: RedactionSchema.optional(),
  pricing: z.record(z.string(), z.strictObject({ input: z.number().min(0), output: z.number().min(0), cached_input: z.number().min(0).optional() })).optional(),
});
export type SuiteFile = z.infer<typeof SuiteSchema>;
