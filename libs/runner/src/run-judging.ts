import { relative } from 'node:path';
import type { Expectation, LoadedScenario, LoadedSuite, ModelRef } from '@parley/config';
import { ConfigError, type Clock, type MetricResult, type Provider, type RunMode, type Transcript } from '@parley/core';
import {
  expectationsWithFluency,
  judgeMetricCatalog,
  JudgeRun,
  promptVersion,
  type BudgetView,
  type JudgeMetric,
} from '@parley/judge';
import type { CallRecord } from '@parley/providers';
import { maskedRequests, providerServer, readRecording, recordingPath } from '@parley/providers';
import { openJudgeCache, type JudgeCacheStore } from '@parley/store';
import type { ScenarioCassette } from './cassette.js';
import { agentFiles } from './agent-files.js';
import { liveModelProvider, meteredInto } from './model-provider.js';
import { saveRecording, type ConversationContext } from './scenario-conversation.js';
import { recordingsDir } from './suite-paths.js';
import { unevaluatedExpectation } from './unevaluated-expectation.js';

/** The run seed when `--seed` is not given (see JudgeRunFlags.seed). */
const DEFAULT_RUN_SEED = 0;

/** `--judge`: how judge calls are answered. */
export type JudgeMode = 'live' | 'replay';

/** The run's judge options (`parley run` flags). */
export interface JudgeRunFlags {
  /** `--judge live|replay`; default: replay in replay mode, live otherwise. */
  judgeMode?: JudgeMode;
  /** `--no-cache`: the verdict cache is neither read nor written. */
  noCache?: boolean;
  /** `--cache-clear`: the verdict cache is emptied before the run. */
  cacheClear?: boolean;
  /**
   * The run seed (`--seed`), drawing the cross-check sample; 0 when not given. Fixed by default so
   * that a replay cross-checks exactly the scenarios the recording cross-checked; live runs that
   * should rotate the sample pass another seed (e.g. the CI run number).
   */
  seed?: number;
}

/**
 * The judging of one run, wired to the runner: which expectations each scenario is judged by
 * (its own plus the fluency metric of its language), the provider stack of judge calls (replayed
 * from the recording, or live with retries, rate limits, timeouts, recording in record mode, and
 * metering into the scenario's cost and the budget), the prompt version of the cache key, and the
 * verdict cache in `.parley/parley.db`.
 */
export class RunJudging {
  private readonly promptVersions = new Map<string, Promise<string>>();

  private constructor(
    private readonly suite: LoadedSuite,
    private readonly catalog: ReadonlyMap<string, JudgeMetric>,
    readonly judgeMode: JudgeMode,
    private readonly runMode: RunMode,
    readonly judgeRun: JudgeRun | undefined,
    private readonly cache: JudgeCacheStore | undefined,
  ) {}

  /**
   * Sets up the judging of a run. Without `judge.primary` there is nothing to judge with (loading
   * made sure no scenario needs it). The cache is opened only when judging is live and not
   * `--no-cache`; `--cache-clear` empties it first.
   */
  static create(input: {
    suite: LoadedSuite;
    mode: RunMode;
    flags: JudgeRunFlags;
    storePath: string;
    /**
     * The suite's loaded scenarios (before --shard and --changed-since choose among them): the
     * cross-check sample is drawn from those with a judge expectation, so every shard of a run
     * cross-checks its part of the one sample the whole run would have drawn.
     */
    scenarios: readonly LoadedScenario[];
    /** The ids of the scenarios this run judges (after --shard and --changed-since). */
    runScenarioIds: readonly string[];
    budget?: BudgetView;
    clock: Clock;
    /** Masks credentials in the verdicts the cache keeps (the run's secrets redactor). */
    secrets?: { value(value: unknown): unknown };
  }): RunJudging {
    const { suite, mode, flags } = input;
    const judgeMode: JudgeMode = flags.judgeMode ?? (mode === 'replay' ? 'replay' : 'live');
    refuseJudgeReplayWhileRecording(mode, judgeMode);
    const catalog = judgeMetricCatalog(suite.customMetrics);
    const judge = suite.config.judge;
    let cache: JudgeCacheStore | undefined;
    if (flags.cacheClear || (judge?.primary !== undefined && judgeMode === 'live' && !flags.noCache)) {
      cache = openJudgeCache(input.storePath, () => input.clock.now());
      if (flags.cacheClear) cache.clear();
      if (flags.noCache || judgeMode !== 'live' || judge?.primary === undefined) {
        cache.close();
        cache = undefined;
      }
    }
    const primary = judge?.primary;
    const judged = input.scenarios.filter((scenario) =>
      expectationsWithFluency(scenario.expectations, scenario.data.language, catalog, primary !== undefined).some((expectation) => catalog.has(expectation.metric)),
    );
    const judgeRun =
      primary === undefined
        ? undefined
        : new JudgeRun({
            judge: { ...judge, primary },
            catalog,
            mode: judgeMode,
            ...(cache ? { cache } : {}),
            readCache: mode !== 'record',
            cleared: flags.cacheClear ?? false,
            seed: flags.seed ?? DEFAULT_RUN_SEED,
            scenarioIds: judged.map((scenario) => scenario.data.id),
            runScenarioIds: input.runScenarioIds,
            ...(input.budget ? { budget: input.budget } : {}),
            clock: input.clock,
            ...(suite.config.pricing ? { pricing: suite.config.pricing } : {}),
            ...(input.secrets ? { secrets: input.secrets } : {}),
          });
    return new RunJudging(suite, catalog, judgeMode, mode, judgeRun, cache);
  }

  /** The expectations a scenario is evaluated by, in order: its own, then `fluency_<language>` when attached. */
  expectationsOf(scenario: LoadedScenario): Expectation[] {
    return expectationsWithFluency(scenario.expectations, scenario.data.language, this.catalog, this.judgeRun !== undefined);
  }

  isJudgeMetric(name: string): boolean {
    return this.catalog.has(name);
  }

  /**
   * Judges a scenario's judge expectations (`expectations` lists only those, in order). Calls are
   * metered into `calls` (the scenario's cost) and the budget; in live and record mode they are
   * recorded and the recording is written again with them (see `saveRecording`).
   */
  async judge(input: {
    scenario: LoadedScenario;
    expectations: readonly Expectation[];
    transcript: Transcript;
    context: ConversationContext & { cassette: ScenarioCassette };
    calls: CallRecord[];
  }): Promise<MetricResult[]> {
    const { scenario, context } = input;
    if (this.judgeRun === undefined) {
      return input.expectations.map((expectation) => unevaluatedExpectation(expectation, `${expectation.metric} needs an LLM judge: add judge.primary to parley.yaml`));
    }
    const recordingFile = recordingPath(recordingsDir(this.suite), scenario.data.id);
    const results = await this.judgeRun.judgeScenario({
      scenario: { id: scenario.data.id, ...(scenario.data.language !== undefined ? { language: scenario.data.language } : {}) },
      transcript: input.transcript,
      expectations: input.expectations,
      // Only the cache key needs it (and computing it asks git): not worth it when no cache is used.
      promptVersion: this.cache ? await this.promptVersionOf(scenario.data.agent) : '',
      provider: (model) => this.providerFor(model, context, input.calls, recordingFile),
      ...(context.attempt !== undefined ? { attempt: context.attempt } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
    });
    if (this.runMode !== 'replay') await saveRecording(context, recordingFile, scenario.data.id, context.cassette.recorder(context.clock));
    return results;
  }

  /** What the budget made the judging give up (for the report's budget section). */
  budgetDowngrades(): string[] {
    return this.judgeRun?.budgetDowngrades() ?? [];
  }

  close(): void {
    this.cache?.close();
  }

  private providerFor(model: ModelRef, context: ConversationContext & { cassette: ScenarioCassette }, calls: CallRecord[], recordingFile: string): Provider {
    if (this.judgeMode === 'replay') {
      const file = relative(this.suite.dir, recordingFile) || recordingFile;
      const replay = context.cassette.replay(() => ({ entries: readRecording(recordingFile), file }));
      return meteredInto(context.secrets ? maskedRequests(replay, context.secrets) : replay, calls, context); // no server reached
    }
    // Live runs record too: the recording is kept for triage (rerecording.ts).
    const recorder = this.runMode !== 'replay' ? context.cassette.recorder(context.clock) : undefined;
    return meteredInto(liveModelProvider(context, { kind: model.provider, baseUrl: model.base_url, apiKeyEnv: model.api_key_env }, recorder), calls, context, providerServer(model.provider, model.base_url, context.env));
  }

  /** `prompt_version` of the agent's prompt (or module, or command script), computed once per run. */
  private promptVersionOf(agentName: string): Promise<string> {
    let version = this.promptVersions.get(agentName);
    if (version === undefined) {
      version = promptVersion(agentFiles(this.suite, agentName).main, agentName);
      this.promptVersions.set(agentName, version);
    }
    return version;
  }
}

/** `--judge replay` with `--mode record` is a usage error: recording calls the judge and records its answers too. */
export function refuseJudgeReplayWhileRecording(mode: RunMode, judgeMode: JudgeMode | undefined): void {
  if (mode === 'record' && judgeMode === 'replay') {
    throw new ConfigError('--judge replay cannot be used with --mode record: recording calls the judge and records its answers too');
  }
}
