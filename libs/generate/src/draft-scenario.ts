import { escapeVariables, ScenarioSchema, type Expectation, type ScenarioFile } from '@parley/config';
import type { ScenarioDraft } from './draft-schema.js';

/** The tag of every drafted scenario, so `parley run --tag generated` runs them. */
const GENERATED_TAG = 'generated';

export interface DraftTarget {
  /** The suite's agent the scenarios are for. */
  agent: string;
  /** Its tool names (a draft may only expect these). */
  toolNames: readonly string[];
  language?: string;
  /** Whether the suite has a judge: without one a `conversation_judge` expectation could not run. */
  hasJudge: boolean;
}

export type DraftCheck = { ok: true; scenario: ScenarioFile } | { ok: false; problems: string[] };

/**
 * A drafted scenario in the scenario file format, `gate: advisory` until a person reviews it,
 * checked with the scenario schema (the same zod schema `parley validate` uses) and against the
 * agent's tools. Problems are returned in words the model can act on when asked to repair.
 */
export function draftScenario(draft: ScenarioDraft, target: DraftTarget): DraftCheck {
  const expect: Expectation[] = [];
  if (target.hasJudge && draft.criteria.trim() !== '') expect.push({ metric: 'conversation_judge', criteria: draft.criteria.trim(), threshold: 0.7 });
  const required = cleanList(draft.required_phrases);
  const forbidden = cleanList(draft.forbidden_phrases);
  if (required.length > 0 || forbidden.length > 0) {
    expect.push({ metric: 'content_signals', ...(required.length > 0 ? { required } : {}), ...(forbidden.length > 0 ? { forbidden } : {}) });
  }
  const tools = cleanList(draft.expected_tools);
  if (tools.length > 0) expect.push({ metric: 'tool_correctness', expected: tools });

  const candidate = {
    id: draft.id,
    title: draft.title.trim(),
    agent: target.agent,
    ...(target.language !== undefined ? { language: target.language } : {}),
    tags: [GENERATED_TAG, ...cleanList(draft.tags).filter((tag) => tag !== GENERATED_TAG)],
    gate: 'advisory',
    user: {
      opening: draft.opening.trim(),
      simulate: { persona: draft.persona.trim(), goal: draft.goal.trim(), max_turns: draft.max_turns },
    },
    expect,
  };
  const problems: string[] = [];
  const parsed = ScenarioSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${draftPath(issue.path)}: ${issue.message}`);
  }
  if (candidate.user.opening === '') problems.push('opening: the first user message is empty');
  const unknown = tools.filter((name) => !target.toolNames.includes(name));
  if (unknown.length > 0) {
    const known = target.toolNames.length > 0 ? `the agent's tools are ${target.toolNames.join(', ')}` : 'the agent has no tools: leave expected_tools empty';
    problems.push(`expected_tools: ${unknown.map((name) => `"${name}"`).join(', ')} ${unknown.length === 1 ? 'is not a tool' : 'are not tools'} of the agent; ${known}`);
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  // A `{{…}}` the model wrote is text, not a variable of the scenario.
  return { ok: true, scenario: escapeVariables(parsed.data) };
}

/** A scenario path in the draft's own names (`user.simulate.persona` is `persona`). */
function draftPath(path: readonly PropertyKey[]): string {
  const joined = path.map(String).join('.');
  const names: Record<string, string> = {
    'user.opening': 'opening',
    'user.simulate.persona': 'persona',
    'user.simulate.goal': 'goal',
    'user.simulate.max_turns': 'max_turns',
  };
  return names[joined] ?? (joined === '' ? '(the draft)' : joined);
}

function cleanList(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => value.trim()).filter((value) => value !== ''))];
}
