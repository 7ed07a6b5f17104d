import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { renderSummaryMarkdown, summaryTitle } from './summary-markdown.js';
import { SECRET_PHRASE, runInfo, sampleResults } from './test-support/sample-run.js';

function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`### ${heading}`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const end = markdown.indexOf('\n### ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('| `'));
}

/** Splits a table row on unescaped pipes, as GitHub does. */
function cells(row: string): string[] {
  return row.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim());
}

describe('renderSummaryMarkdown', () => {
  const markdown = renderSummaryMarkdown(buildReport(runInfo, sampleResults()));

  it('opens with the status and what is behind it', () => {
    expect(markdown.split('\n')[0]).toBe('## Parley: ERROR — 2 of 7 blocking scenarios errored, 2 failed, 1 flaky, 1 with warnings, 1 skipped');
  });

  it('states the totals: counts, cost, mode, duration', () => {
    expect(markdown).toContain('mode replay');
    expect(markdown).toContain('duration 12.3 s');
    expect(markdown).toContain('cost $0.0080 as recorded, $0 spent by this replay (800 input + 400 output tokens, 16 calls)');
    expect(renderSummaryMarkdown(buildReport({ ...runInfo, mode: 'live' }, sampleResults()))).toContain('cost $0.0080 (800 input + 400 output tokens, 16 calls)');
    const call = { role: 'agent' as const, provider: 'openai', turn: 1, input_tokens: 10, output_tokens: 5, latency_ms: 1 };
    const [first, ...rest] = sampleResults();
    const unpriced = { ...first!, cost: { ...first!.cost, usd: null }, calls: [{ ...call, model: 'mystery-1', cost_usd: null }, { ...call, model: 'acme-2', cost_usd: null }] };
    expect(renderSummaryMarkdown(buildReport({ ...runInfo, mode: 'live' }, [unpriced, ...rest]))).toContain(
      'cost unknown (no price for acme-2, mystery-1: add them under pricing: in parley.yaml) (',
    );
    expect(markdown).toContain('| error | fail | flaky | warn | pass | skipped |\n| ---: | ---: | ---: | ---: | ---: | ---: |\n| 2 | 3 | 1 | 1 | 1 | 1 |');
  });

  it('tables blocking scenarios worst first, and advisory ones separately', () => {
    const blocking = tableRows(section(markdown, 'Blocking scenarios'));
    expect(blocking.map((row) => cells(row)[0])).toEqual([
      '`gbv_replay_miss`',
      '`provider_down`',
      '`forbidden_word`',
      '`gbv_disclosure`',
      '`flaky_greeting`',
      '`warn_missing_baseline`',
      '`spa_happy`',
      '`budget_stop`',
    ]);
    const advisory = tableRows(section(markdown, 'Advisory scenarios'));
    expect(advisory.map(cells)).toEqual([['`smoke_advisory`', 'FAIL', 'conversation_judge: rambling']]);
  });

  it('escapes pipes and markup in cells so every row keeps three cells', () => {
    const row = tableRows(markdown).find((line) => line.includes('forbidden_word'));
    expect(row && cells(row)).toEqual([
      '`forbidden_word`',
      'FAIL',
      'content_signals: forbidden "reservation" found in assistant message 3 &lt;&amp;"&gt; \\| pipe',
    ]);
  });

  it('lists each failing scenario with its failed expectations, advisory ones marked', () => {
    const failures = section(markdown, 'Failures');
    expect(failures).toContain('#### `forbidden_word` — FAIL\n\n- content_signals@1.0.0 failed (score 0.00): forbidden');
    expect(failures).toContain('- conversation_judge@1.0.0 failed (score 0.50, threshold 0.70): too curt and cold');
    expect(failures).toContain('#### `provider_down` — ERROR\n\n- error (provider): openai: 503 after 3 retries');
    expect(failures).toContain('#### `smoke_advisory` — FAIL (advisory)');
    expect(failures).not.toContain('spa_happy');
    expect(failures).not.toContain('flaky_greeting');
  });

  it('keeps metadata_only content out', () => {
    expect(markdown).not.toContain(SECRET_PHRASE);
    expect(markdown).toContain('`gbv_disclosure` — FAIL');
  });

  it('lists strict-failing warn and flaky scenarios under failures and says why the run failed', () => {
    const results = sampleResults().filter((result) => ['warn', 'flaky', 'pass'].includes(result.status));
    const strict = renderSummaryMarkdown(buildReport({ ...runInfo, strict: true }, results));
    expect(strict.split('\n')[0]).toBe(
      '## Parley: FLAKY — 1 of 3 blocking scenarios flaky, 1 with warnings (exit 1 under --strict)',
    );
    expect(section(strict, 'Failures')).toContain('`warn_missing_baseline` — WARN');
  });
});

describe('budget line', () => {
  it('states the budget and what it made Parley give up, when the run had one', () => {
    const budget = { limit_usd: 20, exhausted: true, downgrades: ['cross-check sample 10% → 0%', '1 scenario skipped'] };
    const markdown = renderSummaryMarkdown(buildReport({ ...runInfo, budget }, sampleResults()));
    expect(markdown).toContain('Budget $20.0000, exhausted: cross-check sample 10% → 0%; 1 scenario skipped');
    expect(renderSummaryMarkdown(buildReport(runInfo, sampleResults()))).not.toContain('Budget');
  });

  it('says under --repeat that the estimates are per scenario, each with all its attempts', () => {
    const budget = { limit_usd: 5, exhausted: false, downgrades: [], spent_usd: 0.3, estimate: { scenarios: 3, estimated_usd: 0.2, actual_usd: 0.3 } };
    expect(renderSummaryMarkdown(buildReport({ ...runInfo, budget, repeat: 3 }, sampleResults()))).toContain(
      'Spent $0.3000 of it; the 3 scenarios started (each with its 3 attempts) reserved $0.2000 as estimates and spent $0.3000',
    );
    expect(renderSummaryMarkdown(buildReport({ ...runInfo, budget }, sampleResults()))).toContain('the 3 scenarios started reserved $0.2000');
  });
});

describe('summaryTitle', () => {
  const only = (ids: string[]) => sampleResults().filter((result) => ids.includes(result.scenario_id));

  it.each([
    [['spa_happy'], 'Parley: PASS — all 1 blocking scenario passed'],
    [['spa_happy', 'forbidden_word'], 'Parley: FAIL — 1 of 2 blocking scenarios failed'],
    [['spa_happy', 'smoke_advisory'], 'Parley: PASS — all 1 blocking scenario passed'],
    [['smoke_advisory'], 'Parley: PASS — no blocking scenarios; 1 advisory scenario ran'],
    [['budget_stop'], 'Parley: SKIPPED — all 1 scenario skipped'],
    [[], 'Parley: SKIPPED — no scenarios ran'],
  ])('%j → %s', (ids, title) => {
    expect(summaryTitle(buildReport(runInfo, only(ids)))).toBe(title);
  });

  it('says when the run was interrupted: how many of the planned scenarios ran, by what, and the command that finishes it', () => {
    expect(summaryTitle(buildReport({ ...runInfo, interrupted: true, planned: 4 }, only(['spa_happy'])))).toBe(
      `Parley: INTERRUPTED — 1 of 4 scenarios ran (stopped by Ctrl-C); finish with \`parley run --resume ${runInfo.run_id}\``,
    );
    expect(summaryTitle(buildReport({ ...runInfo, interrupted: 'SIGTERM', planned: 4 }, only(['spa_happy'])))).toContain('1 of 4 scenarios ran (stopped by SIGTERM)');
  });
});
