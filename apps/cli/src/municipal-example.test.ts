import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyExample, REPO_ROOT } from './test-support/example-copy.js';
import { runSuite, type RunOutcome } from './index.js';

/*
 * examples/municipal is the evaluation set of a city's service agents: 25 scenarios over four agents, every agent
 * judged by its own rubric, every isiZulu and Afrikaans conversation by its fluency metric.
 * (The binary's offline replay of the example is in cli-process.test.ts.)
 */
const EXAMPLE = join(REPO_ROOT, 'examples', 'municipal');

interface ScenarioFile {
  id: string;
  agent: string;
  language?: string;
  gate?: string;
  metadata_only?: boolean;
}

interface MetricFile {
  name: string;
  criteria: Array<{ id: string; level: 'required' | 'recommended' }>;
}

interface SuiteFile {
  agents: Record<string, { expect?: Array<{ metric: string; gate?: string; threshold?: number }> }>;
}

function scenarioFiles(): ScenarioFile[] {
  return readdirSync(join(EXAMPLE, 'scenarios'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.yaml'))
    .map((entry) => parse(readFileSync(join(entry.parentPath, entry.name), 'utf8')) as ScenarioFile);
}

/** The example's rubric table: each agent's criteria, REQUIRED and RECOMMENDED. */
const SEED_RUBRICS: Record<string, { metric: string; required: string[]; recommended: string[] }> = {
  auth: { metric: 'auth_response', required: ['persona', 'language', 'tool_sequence', 'no_leakage'], recommended: ['single_question'] },
  municipal: {
    metric: 'municipal_response',
    required: ['persona', 'language', 'collected_info', 'tool_sequence', 'no_leakage'],
    recommended: ['single_question'],
  },
  gbv: {
    metric: 'gbv_response',
    required: ['persona', 'language', 'trauma_informed', 'emergency_numbers', 'no_pii_logging', 'tool_sequence', 'no_leakage'],
    recommended: [],
  },
  ticket_status: {
    metric: 'ticket_status_response',
    required: ['persona', 'language', 'tracking_number_handling', 'tool_sequence', 'no_leakage'],
    recommended: ['single_question'],
  },
};

describe('examples/municipal holds the evaluation set (its files)', () => {
  it('has 25 scenarios: Auth 7, Municipal 7, GBV 5, Ticket Status 6, in English, isiZulu and Afrikaans', () => {
    const scenarios = scenarioFiles();
    expect(scenarios).toHaveLength(25);
    const perAgent = Object.fromEntries(['auth', 'municipal', 'gbv', 'ticket_status'].map((agent) => [agent, scenarios.filter((scenario) => scenario.agent === agent).length]));
    expect(perAgent).toEqual({ auth: 7, municipal: 7, gbv: 5, ticket_status: 6 });
    for (const agent of ['auth', 'municipal', 'ticket_status']) {
      const languages = new Set(scenarios.filter((scenario) => scenario.agent === agent).map((scenario) => scenario.language));
      expect([...languages].sort(), agent).toEqual(['af', 'en', 'zu']);
    }
    expect(new Set(scenarios.filter((scenario) => scenario.agent === 'gbv').map((scenario) => scenario.language))).toEqual(new Set(['en', 'zu', 'af']));
  });

  it('keeps every GBV conversation metadata_only', () => {
    const gbv = scenarioFiles().filter((scenario) => scenario.agent === 'gbv');
    expect(gbv.every((scenario) => scenario.metadata_only === true)).toBe(true);
  });

  it('gives each agent its seed rubric: required criteria gate the metric, single_question only advises', () => {
    const suite = parse(readFileSync(join(EXAMPLE, 'parley.yaml'), 'utf8')) as SuiteFile;
    for (const [agent, seed] of Object.entries(SEED_RUBRICS)) {
      const metric = parse(readFileSync(join(EXAMPLE, 'metrics', `${seed.metric}.yaml`), 'utf8')) as MetricFile;
      expect(metric.name).toBe(seed.metric);
      const level = (wanted: string) => metric.criteria.filter((criterion) => criterion.level === wanted).map((criterion) => criterion.id);
      expect(level('required'), seed.metric).toEqual(seed.required);
      expect(level('recommended'), seed.metric).toEqual(seed.recommended);
      // Attached to every conversation of its agent, as a blocking expectation.
      const attached = suite.agents[agent]?.expect?.find((expectation) => expectation.metric === seed.metric);
      expect(attached, `${agent} expects ${seed.metric}`).toBeDefined();
      expect(attached?.gate ?? 'blocking').toBe('blocking');
    }
  });
});

describe('examples/municipal replayed (its recordings, in-process)', () => {
  let outcome: RunOutcome;
  beforeAll(async () => {
    outcome = await runSuite({ suitePath: '.', cwd: copyExample('municipal'), outDir: 'reports' });
  });

  it('passes every blocking scenario; only the advisory raw-status scenario fails, so the run exits 0', () => {
    expect(outcome.exit_code).toBe(0);
    const notPassing = outcome.report.results.filter((result) => result.status !== 'pass');
    expect(notPassing.map((result) => [result.scenario_id, result.gate, result.status])).toEqual([['ticket_status_af_raw_status', 'advisory', 'fail']]);
    expect(outcome.report.results).toHaveLength(25);
  });

  it('judges every af and zu conversation with its fluency metric, and every conversation with its agent rubric', () => {
    for (const result of outcome.report.results) {
      const metrics = result.metrics.map((metric) => metric.metric);
      expect(metrics, result.scenario_id).toContain(`fluency_${result.language}`);
      expect(metrics, result.scenario_id).toContain(SEED_RUBRICS[result.agent]?.metric);
    }
    const languages = outcome.report.results.map((result) => result.language);
    expect(languages.filter((language) => language === 'af').length).toBeGreaterThanOrEqual(5);
    expect(languages.filter((language) => language === 'zu').length).toBeGreaterThanOrEqual(6);
  });

  it('a recommended criterion not met lowers the score without failing; a low score fails the rubric', () => {
    const rubricOf = (id: string) => {
      const result = outcome.report.results.find((candidate) => candidate.scenario_id === id);
      return result?.metrics.find((metric) => metric.metric === SEED_RUBRICS[result.agent]?.metric);
    };
    const dumping = rubricOf('municipal_illegal_dumping_en');
    expect(dumping).toMatchObject({ metric: 'municipal_response', passed: true, score: 0.75 });
    expect(dumping?.details?.criteria).toContainEqual(expect.objectContaining({ id: 'single_question', level: 'recommended', status: 'not_met' }));
    const rawStatus = rubricOf('ticket_status_af_raw_status');
    expect(rawStatus).toMatchObject({ metric: 'ticket_status_response', passed: false, score: 0.5 });
  });
});
