import * as z from 'zod';
import { ExpectationSchema, GateSchema } from './expectation-schema.js';

const SCENARIO_ID_PATTERN = /^[a-z0-9_-]+$/;

/** A variable's name in `vars:` / `cases:` and in `{{name}}`. */
const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * A variable's value names its variant (`spa_booking[lang=zu]`), in ids, file names and on command
 * lines: letters, digits, `_ . + -`, up to 64 characters; a number or true/false is its text.
 */
const VariableValueSchema = z.union([
  z.string().regex(/^[A-Za-z0-9_.+-]{1,64}$/, 'a variable value names its variant: use letters, digits, _ . + - (up to 64 characters)'),
  z.number(),
  z.boolean(),
]);
const VariableNameSchema = z.string().regex(VARIABLE_NAME_PATTERN, 'variable names use letters, digits and _ and do not start with a digit');
/** A language code, or a variable that gives one (`language: "{{lang}}"`). */
const LANGUAGE_PATTERN = /^(?:[a-z]{2,3}|\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\})$/;

const MockedToolSchema = z.union([
  z.strictObject({ returns: z.unknown() }),
  z.strictObject({ error: z.string() }),
]);

export const ScenarioSchema = z.strictObject({
  id: z.string().regex(SCENARIO_ID_PATTERN, 'scenario ids use lowercase letters, digits, _ and -'),
  title: z.string().optional(),
  agent: z.string().min(1),
  language: z.string().regex(LANGUAGE_PATTERN, 'use an ISO 639 language code such as en, sw or zu, or a variable such as "{{lang}}"').optional(),
  tags: z.array(z.string()).default([]),
  gate: GateSchema.optional(),
  vertical: z.string().optional(),
  metadata_only: z.boolean().default(false),
  /** Variants: each name's list of values, every combination a case (scenario-variants.ts). */
  vars: z.record(VariableNameSchema, z.array(VariableValueSchema).min(1, 'give at least one value')).optional(),
  /** Variants: explicit rows of values, one case each. */
  cases: z.array(z.record(VariableNameSchema, VariableValueSchema)).min(1, 'give at least one case').optional(),
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
