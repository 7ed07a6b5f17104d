import { z } from 'zod';
import { ExpectationSchema, GateSchema } from './expectation-schema.js';

const SCENARIO_ID_PATTERN = /^[a-z0-9_-]+$/;

const MockedToolSchema = z.union([
  z.strictObject({ returns: z.unknown() }),
  z.strictObject({ error: z.string() }),
]);

export const ScenarioSchema = z.strictObject({
  id: z.string().regex(SCENARIO_ID_PATTERN, 'scenario ids use lowercase letters, digits, _ and -'),
  title: z.string().optional(),
  agent: z.string().min(1),
  language: z.string().regex(/^[a-z]{2,3}$/, 'use an ISO 639 language code such as en, sw or zu').optional(),
  tags: z.array(z.string()).default([]),
  gate: GateSchema.optional(),
  vertical: z.string().optional(),
  metadata_only: z.boolean().default(false),
  user: z
    .strictObject({
      opening: z.string().optional(),
      script: z.array(z.string()).default([]),
      simulate: z
        .strictObject({
          persona: z.string().min(1),
          goal: z.string().min(1),
          max_turns: z.number().int().min(1).max(100).default(8),
        })
        .optional(),
    })
    .default({ script: [] }),
  tools: z.record(z.string(), MockedToolSchema).default({}),
  expect: z.array(ExpectationSchema).default([]),
  /**
   * Where the scenario came from and what really happened, for reviewers and judges: a scenario
   * promoted from production keeps the (masked) replies the agent gave and the feedback it got.
   */
  reference: z
    .strictObject({
      source: z.string().optional(),
      /** `sha256:<hex>` of the production conversation id: traceable by whoever holds the logs. */
      conversation: z.string().optional(),
      feedback: z
        .array(z.strictObject({ score: z.number().optional(), comment: z.string().optional(), at: z.string().optional() }))
        .optional(),
      /** The agent's replies per user turn, as they were given. */
      replies: z.array(z.strictObject({ turn: z.number().int().min(1), content: z.string() })).default([]),
    })
    .optional(),
});
export type ScenarioFile = z.infer<typeof ScenarioSchema>;
