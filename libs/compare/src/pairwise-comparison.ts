import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readConfigFile, SuiteSchema, type ModelRef } from '@parley/config';
import { ConfigError, type Provider, type Transcript } from '@parley/core';
import { judgePair, modelVersion, renderTranscriptForJudge, summarisePairwise, type PairwiseResult, type PairwiseSummary } from '@parley/judge';
import { costOfCall, meteredProvider, type ModelPrice } from '@parley/providers';
import { readReportFile } from '@parley/reports';
import { openStore, storeExists } from '@parley/store';

/** One side of a pairwise comparison: each scenario's transcript, from a report or the history database. */
export interface RunTranscripts {
  label: string;
  run_id: string;
  suite: string;
  /** The suite folder the run was made from, when the history database knows it. */
  suite_dir?: string;
  scenarios: Map<string, { transcript?: Transcript; language?: string; metadata_only: boolean }>;
}

/**
 * The transcripts of a run named like `parley compare` names runs: a report.json or its folder
 * when the path exists, else a stored run id (or unique prefix). Reports leave out transcripts of
 * metadata_only scenarios; those are not judged pairwise either way (see comparePairwise).
 */
export function loadRunTranscripts(spec: string, context: { cwd: string; storePath: string; parley?: string }): RunTranscripts {
  const path = resolve(context.cwd, spec);
  if (existsSync(path)) {
    const report = readReportFile(path);
    return {
      label: spec,
      run_id: report.run_id,
      suite: report.suite,
      scenarios: new Map(
        report.results.map((result) => [
          result.scenario_id,
          { ...(result.transcript ? { transcript: result.transcript } : {}), ...(result.language ? { language: result.language } : {}), metadata_only: result.metadata_only },
        ]),
      ),
    };
  }
  if (!storeExists(context.storePath)) throw new ConfigError(`"${spec}" is not a report file, a report folder or a stored run (no history database at ${context.storePath})`);
  const store = openStore(context.storePath);
  try {
    const run = store.getRun(spec);
    if (run === undefined) throw new ConfigError(`"${spec}" is not a report file, a report folder or a run id in ${context.storePath} (see ${context.parley ?? 'parley'} runs list)`);
    const suiteDir = typeof run.options['suite_dir'] === 'string' ? run.options['suite_dir'] : undefined;
    return {
      label: spec,
      run_id: run.id,
      suite: run.suite,
      ...(suiteDir ? { suite_dir: suiteDir } : {}),
      scenarios: new Map(
        store.getScenarioResults(run.id).map((result) => [
          result.scenario_id,
          { ...(result.transcript ? { transcript: result.transcript } : {}), ...(result.language ? { language: result.language } : {}), metadata_only: result.metadata_only },
        ]),
      ),
    };
  } finally {
    store.close();
  }
}

/** The judge of pairwise comparisons: the suite's `judge.primary`, and its prices. */
export interface PairwiseJudge {
  model: ModelRef;
  pricing?: Record<string, ModelPrice>;
}

/** `judge.primary` of the suite at `suitePath` (a folder or its parley.yaml); a ConfigError when there is none. */
export function pairwiseJudgeOf(suitePath: string): PairwiseJudge {
  const file = isDirectory(suitePath) ? join(suitePath, 'parley.yaml') : suitePath;
  const suite = readConfigFile(file, SuiteSchema, { format: 'yaml' });
  if (suite.data === undefined) throw new ConfigError(suite.issues);
  const primary = suite.data.judge?.primary;
  if (primary === undefined) {
    throw new ConfigError({ file, message: 'parley compare --pairwise judges with the suite\'s judge: add judge: { primary: { provider: …, model: … } } (or name another suite with --suite)' });
  }
  return { model: primary, ...(suite.data.pricing ? { pricing: suite.data.pricing } : {}) };
}

export interface PairwiseComparison {
  before: { label: string; run_id: string };
  after: { label: string; run_id: string };
  summary: PairwiseSummary;
  results: PairwiseResult[];
  /** Scenarios in both runs that were not judged, and why. */
  skipped: Array<{ scenario_id: string; reason: string }>;
  /** What the judging cost: calls and USD (null when the judge model has no known price). */
  cost: { calls: number; usd: number | null };
}

/**
 * Pairwise judging of two runs (docs/judges.md, "--pairwise": a win only when both orders agree): for every
 * scenario both runs have a transcript of, the judge compares the two in both orders and a run wins
 * only when both orders agree. Scenarios that are `metadata_only` in either run are left out: their
 * content stays out of comparisons.
 */
export async function comparePairwise(
  before: RunTranscripts,
  after: RunTranscripts,
  judge: PairwiseJudge & { provider: Provider },
  signal?: AbortSignal,
): Promise<PairwiseComparison> {
  if (before.suite !== after.suite) {
    throw new ConfigError(`cannot compare runs of different suites: ${before.label} is suite "${before.suite}", ${after.label} is suite "${after.suite}"`);
  }
  const cost = { calls: 0, usd: 0 as number | null };
  const provider = meteredProvider(judge.provider, (call) => {
    cost.calls += 1;
    const usd = costOfCall(call.model, call.usage, judge.pricing ?? {});
    cost.usd = cost.usd === null || usd === null ? null : cost.usd + usd;
  });
  const results: PairwiseResult[] = [];
  const skipped: PairwiseComparison['skipped'] = [];
  const ids = [...before.scenarios.keys()].filter((id) => after.scenarios.has(id)).sort();
  for (const id of ids) {
    const old = before.scenarios.get(id)!;
    const now = after.scenarios.get(id)!;
    if (old.metadata_only || now.metadata_only) {
      skipped.push({ scenario_id: id, reason: 'metadata_only' });
      continue;
    }
    if (old.transcript === undefined || now.transcript === undefined) {
      skipped.push({ scenario_id: id, reason: 'no transcript' });
      continue;
    }
    if (renderTranscriptForJudge(old.transcript) === renderTranscriptForJudge(now.transcript)) {
      results.push(identicalTie(id));
      continue;
    }
    const language = now.language ?? old.language;
    results.push(
      await judgePair({
        scenarioId: id,
        ...(language ? { language } : {}),
        before: old.transcript,
        after: now.transcript,
        model: judge.model,
        provider,
        ...(signal ? { signal } : {}),
      }),
    );
  }
  return {
    before: { label: before.label, run_id: before.run_id },
    after: { label: after.label, run_id: after.run_id },
    summary: summarisePairwise(results, modelVersion(judge.model)),
    results,
    skipped,
    cost,
  };
}

/**
 * Two transcripts the judge would read word for word the same are a tie without asking it: it has
 * nothing to tell apart, and both orders would cost two calls (replays of one recording are alike).
 */
function identicalTie(scenarioId: string): PairwiseResult {
  const reason = 'identical transcripts: a tie without judge calls';
  return {
    scenario_id: scenarioId,
    outcome: 'tie',
    consistent: true,
    orders: [
      { shown_first: 'before', winner: 'tie', reason },
      { shown_first: 'after', winner: 'tie', reason },
    ],
  };
}

/** The pairwise section of `parley compare` as text. */
export function renderPairwise(comparison: PairwiseComparison): string {
  const { summary } = comparison;
  const usd = comparison.cost.usd === null ? 'unknown cost' : `$${comparison.cost.usd.toFixed(4)}`;
  const lines = [
    `Pairwise (${summary.judge_model}, both orders; a win needs both): ${comparison.after.label} wins ${summary.after_wins}, ${comparison.before.label} wins ${summary.before_wins}, ${summary.ties} ties of ${summary.compared} scenarios` +
      `${summary.inconsistent > 0 ? ` (${summary.inconsistent} tie${summary.inconsistent === 1 ? '' : 's'} because the orders disagreed)` : ''}` +
      `${summary.errors > 0 ? `, ${summary.errors} not judged` : ''} · ${comparison.cost.calls} judge calls, ${usd}`,
  ];
  for (const result of comparison.results) {
    if ('error' in result) {
      lines.push(`  ${result.scenario_id}  error: ${result.error}`);
      continue;
    }
    const winner = result.outcome === 'tie' ? 'tie' : `${result.outcome === 'after' ? comparison.after.label : comparison.before.label} wins`;
    const orders = result.orders.map((order) => `${order.shown_first} first → ${order.winner}`).join(', ');
    lines.push(`  ${result.scenario_id}  ${winner}  (${orders}): ${result.orders[1].reason}`);
  }
  if (comparison.skipped.length > 0) {
    lines.push(`  not judged: ${comparison.skipped.map((entry) => `${entry.scenario_id} (${entry.reason})`).join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
