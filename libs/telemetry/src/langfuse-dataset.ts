import type { LoadedSuite } from '@parley/config';
import { scenarioOfCase } from '@parley/core';
import { uuidFromSeed, type LangfuseClient, type LangfuseScore } from '@parley/langfuse';
import type { Redactor } from '@parley/redaction';
import type { ReportResult, RunReport } from '@parley/reports';
import type { ConversationTrace } from './conversation-trace.js';

/** What a dataset item says about a scenario: its masked input and the behaviour expected of the agent. */
export interface DatasetScenario {
  id: string;
  title?: string;
  tags: string[];
  metadataOnly: boolean;
  /** The user side as the scenario writes it, masked; absent for metadata_only scenarios. */
  input?: { opening?: string; script: string[]; simulate?: { persona: string; goal: string } };
  /** The scenario's expectations (metric and parameters, masked; metric names only for metadata_only). */
  expected: Array<Record<string, unknown>>;
}

/**
 * The suite's scenarios as dataset items see them, masked by the suite's redactor plus the names
 * each scenario's user side introduces (`Hi, I'm Kagiso Molefe` masks `Kagiso Molefe` in the
 * persona and the title too), as a conversation's transcript is masked.
 */
export function datasetScenarios(suite: LoadedSuite, suiteRedactor: Redactor): Map<string, DatasetScenario> {
  const scenarios = new Map<string, DatasetScenario>();
  for (const scenario of suite.scenarios) {
    const { data } = scenario;
    const withheld = data.metadata_only;
    const simulate = data.user.simulate;
    const userSide = [data.title, data.user.opening, ...data.user.script, simulate?.persona, simulate?.goal].filter((text) => text !== undefined);
    const redactor = suiteRedactor.withNames(userSide.flatMap((text) => suiteRedactor.namesIn(text)));
    scenarios.set(data.id, {
      id: data.id,
      ...(data.title !== undefined && !withheld ? { title: redactor.text(data.title) } : {}),
      tags: [...data.tags],
      metadataOnly: withheld,
      ...(withheld
        ? {}
        : {
            input: {
              ...(data.user.opening !== undefined ? { opening: redactor.text(data.user.opening) } : {}),
              script: data.user.script.map((line) => redactor.text(line)),
              ...(simulate ? { simulate: { persona: redactor.text(simulate.persona), goal: redactor.text(simulate.goal) } } : {}),
            },
          }),
      expected: scenario.expectations.map((expectation) => (withheld ? { metric: expectation.metric } : (redactor.value({ ...expectation }) as Record<string, unknown>))),
    });
  }
  return scenarios;
}

/**
 * A scenario known only from the report (the suite could not be loaded): the user's scripted
 * messages from the (already redacted) transcript, and the metrics it was held to.
 */
function scenarioFromReport(result: ReportResult): DatasetScenario {
  const id = scenarioOfCase(result.scenario_id);
  const scripted = (result.transcript?.turns ?? []).filter((turn) => turn.role === 'user' && turn.simulated !== true).map((turn) => turn.content);
  return {
    id,
    tags: [...result.tags],
    metadataOnly: result.metadata_only,
    ...(result.metadata_only || result.transcript === undefined ? {} : { input: { ...(scripted[0] !== undefined ? { opening: scripted[0] } : {}), script: scripted.slice(1) } }),
    expected: result.metrics.map((metric) => ({ metric: metric.metric, ...(metric.threshold !== null ? { threshold: metric.threshold } : {}) })),
  };
}

export interface DatasetExport {
  /** The dataset's name in Langfuse (`--dataset NAME`). */
  name: string;
  /** The suite's scenarios, when the suite could be loaded. */
  scenarios?: ReadonlyMap<string, DatasetScenario>;
}

export interface DatasetSummary {
  dataset: string;
  items: number;
  runs: string[];
  /** Run items sent now (a re-export sends none: every link is there already). */
  linked: number;
}

/** One dataset item per scenario: ids from the dataset and scenario, so a re-export updates them (and never collides with another dataset's). */
export function datasetItemId(dataset: string, scenarioId: string): string {
  return uuidFromSeed(`parley:dataset-item:${dataset}:${scenarioId}`);
}

/** The dataset run of one agent of a run: a comparison run gives one per agent. */
function datasetRunName(runId: string, agent: string): string {
  return `${runId}@${agent}`;
}

/**
 * Records a run as a Langfuse experiment: creates or updates the dataset, upserts one item per
 * scenario (masked input, expected behaviour), and for each agent of the run a dataset run whose
 * items link each scenario's item to the trace of that agent's conversation (whose scores Langfuse
 * shows beside it), plus the run's pass rate and each metric's mean as scores of the dataset run.
 * Langfuse gives run items fresh ids, so links already there are read first and not sent again:
 * a re-export changes nothing.
 */
export async function exportDataset(client: LangfuseClient, report: RunReport, traces: readonly ConversationTrace[], dataset: DatasetExport): Promise<DatasetSummary> {
  await client.post('/api/public/v2/datasets', {
    name: dataset.name,
    description: `Scenarios of the Parley suite ${report.suite}`,
    metadata: { suite: report.suite, source: 'parley' },
  });
  const traceOf = new Map(traces.map((trace) => [trace.metadata['scenario_id'], trace]));
  const items = new Map<string, string>();
  for (const result of report.results) {
    const scenarioId = scenarioOfCase(result.scenario_id);
    if (items.has(scenarioId)) continue;
    const scenario = dataset.scenarios?.get(scenarioId) ?? scenarioFromReport(result);
    const id = datasetItemId(dataset.name, scenarioId);
    items.set(scenarioId, id);
    await client.post('/api/public/dataset-items', {
      datasetName: dataset.name,
      id,
      input: scenario.input ?? null,
      expectedOutput: scenario.expected,
      metadata: { scenario_id: scenarioId, suite: report.suite, tags: scenario.tags, metadata_only: scenario.metadataOnly, ...(scenario.title !== undefined ? { title: scenario.title } : {}) },
    });
  }

  const agents = [...new Set(report.results.map((result) => result.agent))];
  const runs: string[] = [];
  let linked = 0;
  for (const agent of agents) {
    const runName = datasetRunName(report.run_id, agent);
    runs.push(runName);
    const results = report.results.filter((result) => result.agent === agent);
    const existing = (await client.find(`/api/public/datasets/${encodeURIComponent(dataset.name)}/runs/${encodeURIComponent(runName)}`)) as { id?: string; datasetRunItems?: Array<{ datasetItemId: string; traceId: string }> } | undefined;
    const already = new Set((existing?.datasetRunItems ?? []).map((item) => `${item.datasetItemId} ${item.traceId}`));
    let runId = existing?.id;
    for (const result of results) {
      const trace = traceOf.get(result.scenario_id);
      const itemId = items.get(scenarioOfCase(result.scenario_id));
      if (trace === undefined || itemId === undefined || already.has(`${itemId} ${trace.trace_id}`)) continue;
      const created = (await client.post('/api/public/dataset-run-items', {
        runName,
        runDescription: `Parley run ${report.run_id} of suite ${report.suite}, agent ${agent} (${report.mode}${report.git_sha !== null ? `, git ${report.git_sha}` : ''})`,
        metadata: { run_id: report.run_id, agent, suite: report.suite, mode: report.mode, ...(report.git_sha !== null ? { git_sha: report.git_sha } : {}) },
        datasetItemId: itemId,
        traceId: trace.trace_id,
      })) as { datasetRunId?: string };
      runId = created.datasetRunId ?? runId;
      linked += 1;
    }
    if (runId !== undefined) await sendRunScores(client, runId, report.run_id, agent, results);
  }
  return { dataset: dataset.name, items: items.size, runs, linked };
}

/** The dataset run's own scores: the share of its scenarios that passed, and each metric's mean score. */
async function sendRunScores(client: LangfuseClient, datasetRunId: string, runId: string, agent: string, results: readonly ReportResult[]): Promise<void> {
  const scores: LangfuseScore[] = [];
  const score = (name: string, value: number, comment: string): LangfuseScore => ({
    id: uuidFromSeed(`parley:dataset-run-score:${runId}:${agent}:${name}`),
    datasetRunId,
    name,
    value,
    dataType: 'NUMERIC',
    comment,
    metadata: { run_id: runId, agent },
  });
  const judged = results.filter((result) => result.status !== 'skipped');
  if (judged.length > 0) {
    const passed = judged.filter((result) => result.status === 'pass' || result.status === 'flaky').length;
    scores.push(score('pass_rate', passed / judged.length, `${passed} of ${judged.length} scenarios passed`));
  }
  const byMetric = new Map<string, number[]>();
  for (const result of results) {
    for (const metric of result.metrics) {
      if (metric.error === true) continue;
      byMetric.set(metric.metric, [...(byMetric.get(metric.metric) ?? []), metric.score ?? (metric.passed ? 1 : 0)]);
    }
  }
  for (const [metric, values] of byMetric) {
    scores.push(score(metric, values.reduce((sum, value) => sum + value, 0) / values.length, `mean over ${values.length} scenario${values.length === 1 ? '' : 's'}`));
  }
  for (const item of scores) await client.post('/api/public/scores', item);
}
