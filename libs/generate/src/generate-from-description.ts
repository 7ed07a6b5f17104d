import { isAbsolute, join } from 'node:path';
import { ConfigError, type Clock, type TokenUsage } from '@parley/core';
import type { LoadedSuite } from '@parley/config';
import { costOfCall, isProviderError, type ResilienceSettings } from '@parley/providers';
import { chooseAgent } from '@parley/production';
import { suiteScenarioIds } from './suite-scenario-ids.js';
import { draftScenarios, type RejectedDraft } from './draft-scenarios.js';
import { defaultGenerateMode, drafterProvider, generationRecordingPath, type GenerateMode } from './drafter-provider.js';
import { writeScenarios, type WrittenScenario } from './write-scenarios.js';

export interface DescriptionInput {
  suite: LoadedSuite;
  /** `--from TEXT`. */
  description: string;
  count: number;
  language?: string;
  agent?: string;
  /** Default `<suite>/scenarios/generated`. */
  outDir?: string;
  /** Default: replay when the recording exists, else live. */
  mode?: GenerateMode;
  /** The command as the user would re-run it in record mode (shown on a replay miss). */
  recordCommand: string;
  displayPath: (file: string) => string;
}

export interface GenerateDependencies {
  env: NodeJS.ProcessEnv;
  clock: Clock;
  signal?: AbortSignal;
  resilience?: ResilienceSettings;
}

export interface DescriptionResult {
  mode: GenerateMode;
  provider: string;
  model: string;
  recording_file: string;
  /** Record mode: whether the recording was written. */
  recording?: { written: boolean; calls: number };
  scenarios_dir: string;
  written: WrittenScenario[];
  /** Drafts still invalid after their repairs: not written. */
  rejected: RejectedDraft[];
  /** Drafts asked for that the model did not write. */
  missing: number;
  /** Drafts that needed a repair before they were valid. */
  repaired: number;
  calls: number;
  usage: TokenUsage;
  /** What the calls cost (null when the model has no known price); 0 in replay. */
  cost_usd: number | null;
  /** The model could not be reached or the recording has no answer: nothing was written. */
  error?: { kind: string; message: string; details?: string };
}

/**
 * `parley generate --from TEXT`: drafts scenarios with the suite's simulator model (see
 * draftScenarios), writes the valid ones as `gate: advisory` scenario files, and records or replays
 * the calls like every LLM call (`<recordings>/generate/<slug>.jsonl`).
 */
export async function generateFromDescription(input: DescriptionInput, dependencies: GenerateDependencies): Promise<DescriptionResult> {
  const { suite } = input;
  const simulator = suite.config.simulator;
  if (simulator === undefined) {
    throw new ConfigError({
      file: suite.file,
      message: "parley generate --from drafts with the suite's simulator model: add simulator: { provider, model } to parley.yaml",
    });
  }
  if (input.description.trim() === '') throw new ConfigError('--from needs a description of the agent and what to test');
  const agent = chooseAgent(suite, input.agent, 'the scenarios are for');
  const recordingsDir = isAbsolute(suite.config.recordings) ? suite.config.recordings : join(suite.dir, suite.config.recordings);
  const recordingFile = generationRecordingPath(recordingsDir, {
    description: input.description,
    count: input.count,
    ...(input.language !== undefined ? { language: input.language } : {}),
    agent,
    model: `${simulator.provider}:${simulator.model}`,
  });
  const mode = input.mode ?? defaultGenerateMode(recordingFile);
  const drafter = drafterProvider({
    mode,
    recordingFile,
    recordCommand: input.recordCommand,
    model: simulator,
    env: dependencies.env,
    clock: dependencies.clock,
    ...(dependencies.resilience ? { resilience: dependencies.resilience } : {}),
  });
  const tools = suite.agentTools[agent] ?? [];
  const scenariosDir = input.outDir ?? join(suite.dir, 'scenarios', 'generated');
  const base = {
    mode,
    provider: simulator.provider,
    model: simulator.model,
    recording_file: recordingFile,
    scenarios_dir: scenariosDir,
  };

  let outcome: Awaited<ReturnType<typeof draftScenarios>>;
  try {
    outcome = await draftScenarios({
      provider: drafter.provider,
      model: {
        provider: simulator.provider,
        model: simulator.model,
        ...(simulator.temperature !== undefined ? { temperature: simulator.temperature } : {}),
        ...(simulator.seed !== undefined ? { seed: simulator.seed } : {}),
      },
      brief: {
        description: input.description,
        count: input.count,
        ...(input.language !== undefined ? { language: input.language } : {}),
        agent: { name: agent, ...(suite.agentPrompts[agent] ? { systemPrompt: suite.agentPrompts[agent].text } : {}), tools },
      },
      target: {
        agent,
        toolNames: tools.map((tool) => tool.name),
        ...(input.language !== undefined ? { language: input.language } : {}),
        hasJudge: suite.config.judge?.primary !== undefined,
      },
      ...(dependencies.signal ? { signal: dependencies.signal } : {}),
    });
  } catch (error) {
    if (!isProviderError(error)) throw error;
    const recording = drafter.finish(false);
    return {
      ...base,
      ...(recording ? { recording } : {}),
      written: [],
      rejected: [],
      missing: input.count,
      repaired: 0,
      calls: 0,
      usage: { input_tokens: 0, output_tokens: 0 },
      cost_usd: 0,
      error: { kind: error.kind, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) },
    };
  }
  const recording = drafter.finish(true);

  const { written } = writeScenarios(
    outcome.accepted.map((draft, index) => ({
      scenario: draft.scenario,
      source: `draft ${index + 1}`,
      header: [
        `Drafted by \`parley generate\` with ${simulator.provider}:${simulator.model} (${dependencies.clock.now().toISOString().slice(0, 10)}) from:`,
        ...quoted(input.description),
        'A draft: review the persona, goal and expectations, record it, then make it blocking.',
      ].join('\n'),
    })),
    { dir: scenariosDir, takenIds: suiteScenarioIds(suite), policy: 'rename', displayPath: input.displayPath },
  );
  const costs = mode === 'replay' ? [0] : outcome.responses.map((response) => costOfCall(simulator.model, response.usage, suite.config.pricing));
  return {
    ...base,
    ...(recording ? { recording } : {}),
    written,
    rejected: outcome.rejected,
    missing: outcome.missing,
    repaired: outcome.accepted.filter((draft) => draft.repairs > 0).length,
    calls: outcome.calls,
    usage: outcome.usage,
    cost_usd: costs.some((cost) => cost === null) ? null : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
  };
}

/** The description as comment lines of at most 100 characters, each starting with `> `. */
function quoted(text: string): string[] {
  const lines: string[] = [];
  for (const paragraph of text.trim().split(/\n\s*\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter((part) => part !== '')) {
      if (line !== '' && line.length + 1 + word.length > 96) {
        lines.push(`> ${line}`);
        line = '';
      }
      line = line === '' ? word : `${line} ${word}`;
    }
    if (line !== '') lines.push(`> ${line}`);
  }
  return lines;
}
