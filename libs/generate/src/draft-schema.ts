import * as z from 'zod';

/**
 * One scenario as the simulator's model drafts it: flat, every field present (what OpenAI's
 * strict structured outputs accept), mapped onto the scenario file format by `draftScenario`.
 */
export const ScenarioDraftSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  persona: z.string(),
  goal: z.string(),
  opening: z.string(),
  max_turns: z.number().int(),
  /** What a judge should check in the conversation (becomes a `conversation_judge` expectation). */
  criteria: z.string(),
  /** Phrases the agent must say (`content_signals.required`); often empty. */
  required_phrases: z.array(z.string()),
  /** Phrases the agent must never say (`content_signals.forbidden`). */
  forbidden_phrases: z.array(z.string()),
  /** Names of the agent's tools it should call (`tool_correctness.expected`); empty when none. */
  expected_tools: z.array(z.string()),
});
export type ScenarioDraft = z.infer<typeof ScenarioDraftSchema>;

const DRAFT_JSON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'title', 'tags', 'persona', 'goal', 'opening', 'max_turns', 'criteria', 'required_phrases', 'forbidden_phrases', 'expected_tools'],
  properties: {
    id: { type: 'string', description: 'snake_case identifier: lowercase letters, digits, _ and -' },
    title: { type: 'string', description: 'one line: who wants what, and what makes it hard' },
    tags: { type: 'array', items: { type: 'string' } },
    persona: { type: 'string', description: 'who the simulated user is: name, age, situation, way of writing' },
    goal: { type: 'string', description: 'what the user wants by the end of the conversation' },
    opening: { type: 'string', description: "the user's first message, in the scenario's language" },
    max_turns: { type: 'integer', description: 'user turns at most, 2 to 12' },
    criteria: { type: 'string', description: 'what a judge checks in the conversation: one or two sentences' },
    required_phrases: { type: 'array', items: { type: 'string' } },
    forbidden_phrases: { type: 'array', items: { type: 'string' } },
    expected_tools: { type: 'array', items: { type: 'string' } },
  },
};

/** The JSON Schema the batch request asks for (strict: every key required, nothing else allowed). */
export const DRAFT_BATCH_JSON_SCHEMA = {
  name: 'scenario_drafts',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['scenarios'],
    properties: { scenarios: { type: 'array', items: DRAFT_JSON_SCHEMA } },
  },
};

/** The JSON Schema of a repair request: the one corrected draft. */
export const DRAFT_JSON_SCHEMA_FOR_REPAIR = { name: 'scenario_draft', schema: DRAFT_JSON_SCHEMA };
