import type { ChatMessage, CompletionRequest, ProviderKind, ToolDefinition } from '@parley/core';
import { DRAFT_BATCH_JSON_SCHEMA, DRAFT_JSON_SCHEMA_FOR_REPAIR } from './draft-schema.js';

/** The suite's `simulator:`: the model that drafts scenarios (it already plays the users). */
export interface DrafterModel {
  provider: ProviderKind;
  model: string;
  temperature?: number;
  seed?: number;
}

export interface DraftBrief {
  /** `--from`: the description of the agent and what to test. */
  description: string;
  count: number;
  language?: string;
  agent: { name: string; systemPrompt?: string; tools: readonly ToolDefinition[] };
}

/** Longest system prompt quoted to the drafter; a longer one is cut (the request stays bounded). */
const MAX_PROMPT_CHARACTERS = 6000;

const INSTRUCTIONS = [
  "You write test scenarios for a conversational AI agent. Each scenario is played by another model acting as the user (the persona, with the goal), starting with the opening message; the agent's replies are then judged.",
  'Write varied scenarios: happy paths, users who change their mind, missing or wrong information, requests the agent must refuse, attempts to make it break its rules. Each tests one thing a reviewer can name.',
  'Rules: ids are snake_case (lowercase letters, digits, _), unique; persona, goal, opening and criteria are never empty; max_turns is between 2 and 12; expected_tools names only tools the agent has (empty when it should call none or has none); required_phrases are exact strings the agent must say (usually none); forbidden_phrases are exact strings it must never say.',
].join('\n');

/**
 * The request for the whole batch: identical inputs give identical requests (recording keys). It
 * holds the description, count, language and the agent's prompt and tools, nothing of the suite's
 * other scenarios, so a recording still replays after drafts were added to the suite.
 */
export function draftBatchRequest(model: DrafterModel, brief: DraftBrief): CompletionRequest {
  return {
    provider: model.provider,
    model: model.model,
    system: INSTRUCTIONS,
    messages: [{ role: 'user', content: briefText(brief) }],
    ...(model.temperature !== undefined ? { temperature: model.temperature } : {}),
    ...(model.seed !== undefined ? { seed: model.seed } : {}),
    response_schema: DRAFT_BATCH_JSON_SCHEMA,
  };
}

/**
 * The request that asks for one draft again, with its problems: the batch conversation so far,
 * then what was wrong with draft `index` (0-based). Earlier failed repairs stay in the history.
 */
export function draftRepairRequest(
  model: DrafterModel,
  brief: DraftBrief,
  batchAnswer: string,
  attempts: ReadonlyArray<{ problems: readonly string[]; answer?: string }>,
  index: number,
): CompletionRequest {
  const messages: ChatMessage[] = [
    { role: 'user', content: briefText(brief) },
    { role: 'assistant', content: batchAnswer },
  ];
  attempts.forEach((attempt, attemptIndex) => {
    const which = attemptIndex === 0 ? `Scenario ${index + 1} of your answer` : 'That scenario';
    messages.push({ role: 'user', content: `${which} has these problems:\n${attempt.problems.map((problem) => `- ${problem}`).join('\n')}\nWrite that one scenario again, corrected.` });
    if (attempt.answer !== undefined) messages.push({ role: 'assistant', content: attempt.answer });
  });
  return {
    provider: model.provider,
    model: model.model,
    system: INSTRUCTIONS,
    messages,
    ...(model.temperature !== undefined ? { temperature: model.temperature } : {}),
    ...(model.seed !== undefined ? { seed: model.seed } : {}),
    response_schema: DRAFT_JSON_SCHEMA_FOR_REPAIR,
  };
}

function briefText(brief: DraftBrief): string {
  const prompt = brief.agent.systemPrompt?.trim();
  const shownPrompt = prompt !== undefined && prompt.length > MAX_PROMPT_CHARACTERS ? `${prompt.slice(0, MAX_PROMPT_CHARACTERS)}\n[…]` : prompt;
  const tools = brief.agent.tools.map((tool) => `- ${tool.name}${tool.description ? `: ${tool.description}` : ''}`);
  return [
    `Write ${brief.count} test ${brief.count === 1 ? 'scenario' : 'scenarios'} for the agent "${brief.agent.name}".`,
    brief.language !== undefined
      ? `Language: every persona's opening message is in the language with ISO 639 code "${brief.language}", as such a user would write it.`
      : 'Language: the one the description implies.',
    '',
    'What to test (from the team):',
    brief.description.trim(),
    ...(shownPrompt ? ['', "The agent's system prompt:", shownPrompt] : []),
    '',
    tools.length > 0 ? `The agent's tools:\n${tools.join('\n')}` : 'The agent has no tools.',
  ].join('\n');
}
