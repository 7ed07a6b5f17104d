import type { ToolDefinition } from '@parley/core';
import * as z from 'zod';

/** OpenAI's limit on function names, which the other providers accept too. */
const ToolNameSchema = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names use letters, digits, _ and -, at most 64 characters');

/** JSON Schema of the arguments; a tool without arguments may leave it out. */
const ParametersSchema = z.record(z.string(), z.unknown()).default(() => ({ type: 'object', properties: {} }));

/** `{ name, description?, parameters }`: Parley's own (and Anthropic-like) form. */
const PlainToolSchema = z.strictObject({
  name: ToolNameSchema,
  description: z.string().optional(),
  parameters: ParametersSchema,
});

/** `{ type: "function", function: { name, description?, parameters, strict? } }`: OpenAI's form. */
const OpenAiToolSchema = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({
    name: ToolNameSchema,
    description: z.string().optional(),
    parameters: ParametersSchema,
    strict: z.boolean().optional(),
  }),
});

function normalise(entry: z.output<typeof PlainToolSchema> | z.output<typeof OpenAiToolSchema>): ToolDefinition {
  const tool = 'function' in entry ? entry.function : entry;
  return {
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: tool.parameters,
  };
}

/**
 * `tools/*.json`: a JSON array of tool definitions in either form, normalised to `ToolDefinition`
 * (OpenAI's `strict` flag is dropped: providers decide that). Tool names must be unique.
 */
export const ToolsFileSchema = z
  .array(z.union([OpenAiToolSchema, PlainToolSchema]))
  .superRefine((entries, context) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      const isOpenAi = 'function' in entry;
      const name = isOpenAi ? entry.function.name : entry.name;
      if (seen.has(name)) {
        context.addIssue({ code: 'custom', path: isOpenAi ? [index, 'function', 'name'] : [index, 'name'], message: `a second tool named "${name}"` });
      }
      seen.add(name);
    });
  })
  .transform((entries) => entries.map(normalise));
