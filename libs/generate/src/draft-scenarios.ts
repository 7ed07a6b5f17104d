import type { CallContext, CompletionRequest, CompletionResponse, Provider, TokenUsage } from '@parley/core';
import type { ScenarioFile } from '@parley/config';
import * as z from 'zod';
import { draftBatchRequest, draftRepairRequest, type DraftBrief, type DrafterModel } from './draft-request.js';
import { draftScenario, type DraftTarget } from './draft-scenario.js';
import { ScenarioDraftSchema, type ScenarioDraft } from './draft-schema.js';

/** The batch answer's shape; each draft is then checked on its own, so one bad draft spoils nothing else. */
const BatchAnswerSchema = z.looseObject({ scenarios: z.array(z.unknown()) });

/** Repairs asked per invalid draft before it is reported as rejected. */
const MAX_REPAIRS = 2;

interface AcceptedDraft {
  scenario: ScenarioFile;
  /** How many repair requests it took (0: valid as first drafted). */
  repairs: number;
}

export interface RejectedDraft {
  /** 1-based position in the model's answer. */
  position: number;
  /** The id the model gave, when it gave one. */
  id?: string;
  problems: string[];
}

export interface DraftOutcome {
  accepted: AcceptedDraft[];
  rejected: RejectedDraft[];
  /** Drafts asked for but not in the answer (the model wrote fewer). */
  missing: number;
  calls: number;
  usage: TokenUsage;
  /** Tokens per model call, for pricing. */
  responses: CompletionResponse[];
}

/**
 * `parley generate --from TEXT`: asks the simulator's model for `count` drafts as structured JSON,
 * turns each into a scenario and checks it (scenario schema, the agent's tools). An invalid draft
 * is sent back with its problems up to MAX_REPAIRS times, then reported as rejected; an answer that
 * is not the asked-for JSON is asked for once more. Every call goes through `provider`, so it is
 * recorded, replayed, retried and metered like every other call (role `simulator`).
 */
export async function draftScenarios(input: {
  provider: Provider;
  model: DrafterModel;
  brief: DraftBrief;
  target: DraftTarget;
  signal?: AbortSignal;
}): Promise<DraftOutcome> {
  const { provider, model, brief, target, signal } = input;
  const responses: CompletionResponse[] = [];
  const context: CallContext = { role: 'simulator', scenario_id: 'generate', turn: 0 };
  const call = async (request: CompletionRequest): Promise<string> => {
    const response = await provider.complete(request, context, signal);
    responses.push(response);
    return response.content;
  };

  const batchRequest = draftBatchRequest(model, brief);
  let batchAnswer = '';
  let drafts: unknown[] | undefined;
  let batchProblem = '';
  for (let attempt = 1; attempt <= 2 && drafts === undefined; attempt += 1) {
    batchAnswer = await call(batchRequest);
    const parsed = parseJson(batchAnswer, BatchAnswerSchema);
    if (parsed.ok) drafts = parsed.value.scenarios;
    else batchProblem = parsed.problem;
  }
  if (drafts === undefined) {
    return { accepted: [], rejected: [{ position: 0, problems: [`the model's answer was unusable twice: ${batchProblem}`] }], missing: brief.count, calls: responses.length, usage: total(responses), responses };
  }

  const accepted: AcceptedDraft[] = [];
  const rejected: RejectedDraft[] = [];
  const wanted = drafts.slice(0, brief.count);
  for (const [index, raw] of wanted.entries()) {
    let check = checkDraft(raw, target);
    const attempts: Array<{ problems: readonly string[]; answer?: string }> = [];
    while (!check.ok && attempts.length < MAX_REPAIRS) {
      attempts.push({ problems: check.problems });
      const answer = await call(draftRepairRequest(model, brief, batchAnswer, attempts, index));
      attempts[attempts.length - 1]!.answer = answer;
      const parsed = parseJson(answer, ScenarioDraftSchema);
      check = parsed.ok ? checkDraft(parsed.value, target) : { ok: false, problems: [parsed.problem], id: check.id };
    }
    if (check.ok) accepted.push({ scenario: check.scenario, repairs: attempts.length });
    else rejected.push({ position: index + 1, ...(check.id !== undefined ? { id: check.id } : {}), problems: check.problems });
  }
  return { accepted, rejected, missing: brief.count - wanted.length, calls: responses.length, usage: total(responses), responses };
}

type Checked = { ok: true; scenario: ScenarioFile } | { ok: false; problems: string[]; id?: string };

function checkDraft(raw: unknown, target: DraftTarget): Checked {
  const id = typeof raw === 'object' && raw !== null && typeof Reflect.get(raw, 'id') === 'string' ? (Reflect.get(raw, 'id') as string) : undefined;
  const shape = ScenarioDraftSchema.safeParse(raw);
  if (!shape.success) {
    return { ok: false, problems: shape.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(the scenario)'}: ${issue.message}`), ...(id !== undefined ? { id } : {}) };
  }
  const checked = draftScenario(shape.data satisfies ScenarioDraft, target);
  return checked.ok ? checked : { ...checked, ...(id !== undefined ? { id } : {}) };
}

function parseJson<Schema extends z.ZodType>(text: string, schema: Schema): { ok: true; value: z.output<Schema> } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not JSON: ${(error as Error).message}` };
  }
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  return { ok: false, problem: `${issue?.path.map(String).join('.') || '(the answer)'}: ${issue?.message ?? 'invalid'}` };
}

function total(responses: readonly CompletionResponse[]): TokenUsage {
  return responses.reduce((sum, response) => ({ input_tokens: sum.input_tokens + response.usage.input_tokens, output_tokens: sum.output_tokens + response.usage.output_tokens }), {
    input_tokens: 0,
    output_tokens: 0,
  });
}
