import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MetricResult } from '@parley/core';
import { triageOrder } from '@parley/gate';
import { failureMarks, type ReportResult, type RunReport } from '@parley/reports';
import { chunkJson, compressJsonArray, compressPieces, encodeData, jsonArrayText, jsonChunker, readEmbeddedData } from './embedded-data.js';
import { htmlDocument } from './html-document.js';
import type { CaseDetail, RunPageData } from './page-data.js';
import { runPageJson, runPageSteps } from './run-page-data.js';
import { renderRunHtml, writeRunHtml } from './write-html.js';

const cost = { input_tokens: 10, output_tokens: 5, usd: 0.001, calls: 1 };

function metric(name: string, overrides: Partial<MetricResult> = {}): MetricResult {
  return { metric: name, version: '1.0.0', score: 1, threshold: 0.7, passed: true, reason: `${name} held`, ...overrides };
}

function result(id: string, overrides: Partial<ReportResult> = {}): ReportResult {
  return {
    scenario_id: id,
    agent: 'booking',
    gate: 'blocking',
    tags: ['booking'],
    status: 'pass',
    reason: 'all passed',
    metadata_only: false,
    metrics: [metric('content_signals')],
    cost,
    transcript: {
      ended_by: 'script',
      turns: [
        { role: 'user', content: 'Hi, a massage on Saturday?', turn: 1 },
        { role: 'assistant', content: 'We have 10:00 and 14:00.', turn: 1 },
      ],
    },
    ...overrides,
  };
}

const judged = metric('conversation_judge', {
  score: 0.4,
  passed: false,
  reason: 'conversation_judge 0.4 < 0.7',
  details: { message_scores: [{ message_index: 1, score: 35, reason: 'Offers times without checking availability.' }] },
});

const results: ReportResult[] = [
  result('a_pass'),
  result('b_advisory_fail', { gate: 'advisory', status: 'fail', reason: 'judge', metrics: [judged] }),
  result('c_private_error', { status: 'error', reason: '[metadata_only: content withheld]', metadata_only: true, transcript: undefined, error: { kind: 'replay_miss', message: 'recording miss' } }),
  result('d_blocking_fail', { status: 'fail', reason: 'judge', metrics: [judged] }),
];

const report: RunReport = {
  schema_version: 1,
  run_id: 'run-1',
  suite: 'ratiba <booking>',
  parley_version: '0.1.0',
  mode: 'replay',
  status: 'fail',
  exit_code: 1,
  strict: false,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:01.000Z',
  duration_ms: 1000,
  git_sha: null,
  config_fingerprint: 'sha256:feed',
  cost_usd: 0.004,
  cost,
  counts: { pass: 1, fail: 2, warn: 0, flaky: 0, error: 1, skipped: 0 },
  results,
};

describe('runPageJson', () => {
  it('lists the cases in the TUI’s triage order and keeps each result exactly as report.json has it', () => {
    const { data, chunks } = runPageJson(report);
    const page = JSON.parse(data) as RunPageData;
    expect(page.cases.map((entry) => entry.id)).toEqual(triageOrder(results).map((entry) => entry.scenario_id));
    expect(page.cases.map((entry) => entry.id)).toEqual(['c_private_error', 'd_blocking_fail', 'b_advisory_fail', 'a_pass']);
    expect(page.header).not.toHaveProperty('results');
    const details = chunks.flatMap((chunk) => JSON.parse(chunk) as CaseDetail[]);
    for (const entry of page.cases) {
      const detail = (JSON.parse(chunks[entry.chunk]!) as CaseDetail[])[entry.slot]!;
      expect(detail.result).toEqual(results.find((candidate) => candidate.scenario_id === entry.id));
    }
    expect(details).toHaveLength(results.length);
  });

  it('carries the failure marks and judgements the libraries find, and no conversation for a metadata_only case', () => {
    const { data, chunks } = runPageJson(report);
    const page = JSON.parse(data) as RunPageData;
    const failing = page.cases.find((entry) => entry.id === 'd_blocking_fail')!;
    const detail = (JSON.parse(chunks[failing.chunk]!) as CaseDetail[])[failing.slot]!;
    expect(detail.view.marks).toEqual([...failureMarks([judged]).byMessage]);
    expect(detail.view.judgements).toEqual([[1, [{ metric: 'conversation_judge', score: 35, scale: { min: 0, max: 100 }, reason: 'Offers times without checking availability.' }]]]);
    expect(failing.marked_messages).toBe(1);
    const hidden = page.cases.find((entry) => entry.id === 'c_private_error')!;
    expect(hidden).toMatchObject({ metadata_only: true, messages: 0, error_kind: 'replay_miss' });
    expect((JSON.parse(chunks[hidden.chunk]!) as CaseDetail[])[hidden.slot]!.result.transcript).toBeUndefined();
  });
});

describe('chunkJson', () => {
  it('fills chunks up to the size and keeps every item in order with its place', () => {
    const items = ['"aaaa"', '"bbbb"', '"cccc"', '"dddd"', '"eeee"'];
    const { chunks, places } = chunkJson(items, 14);
    expect(chunks).toEqual(['["aaaa","bbbb"]', '["cccc","dddd"]', '["eeee"]']);
    expect(places).toEqual([
      { chunk: 0, slot: 0 },
      { chunk: 0, slot: 1 },
      { chunk: 1, slot: 0 },
      { chunk: 1, slot: 1 },
      { chunk: 2, slot: 0 },
    ]);
  });

  it('puts an item larger than a chunk in a chunk of its own', () => {
    expect(chunkJson(['"small"', `"${'x'.repeat(50)}"`, '"small"'], 20).chunks).toHaveLength(3);
  });
});

describe('jsonChunker', () => {
  it('hands each chunk to the sink as soon as the next item does not fit, not at the end', () => {
    const sunk: string[] = [];
    const chunker = jsonChunker((items) => {
      const json = jsonArrayText(items);
      sunk.push(json);
      return json.length;
    }, 14);
    expect(chunker.add('"aaaa"')).toEqual({ chunk: 0, slot: 0 });
    expect(chunker.add('"bbbb"')).toEqual({ chunk: 0, slot: 1 });
    expect(sunk).toEqual([]);
    expect(chunker.add('"cccc"')).toEqual({ chunk: 1, slot: 0 });
    expect(sunk).toEqual(['["aaaa","bbbb"]']);
    expect(chunker.finish()).toEqual([15, 8]);
    expect(sunk).toEqual(['["aaaa","bbbb"]', '["cccc"]']);
  });
});

describe('compressJsonArray', () => {
  it('compresses exactly the JSON array text of the items, whatever their characters and sizes', () => {
    for (const items of [[], ['"a"'], ['"Karibu 🌍"', '{"ü":"ß"}', `"${'€'.repeat(300_000)}"`], [`"${'x'.repeat(800_000)}"`, '1'], ['"small"']]) {
      expect(gunzipSync(compressJsonArray(items)).toString('utf8')).toBe(jsonArrayText(items));
      expect(gunzipSync(compressPieces(items)).toString('utf8')).toBe(items.join(''));
    }
  });
});

describe('renderRunHtml', () => {
  const html = renderRunHtml(report);

  it('carries the report’s data, decodable back to what it was made from', () => {
    const { data, chunks } = readEmbeddedData(html);
    const made = runPageJson(report);
    expect(data).toEqual(JSON.parse(made.data));
    expect(chunks).toEqual(made.chunks.map((chunk) => JSON.parse(chunk)));
  });

  it('loads nothing from anywhere: a policy of no sources, and no URL but XML namespaces', () => {
    expect(html).toContain(`content="default-src 'none'; script-src 'sha256-`);
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    const urls = new Set(html.match(/https?:\/\/[^"'\s)\\]+/g) ?? []);
    expect([...urls].filter((url) => !url.startsWith('http://www.w3.org/'))).toEqual([]);
  });

  it('escapes the suite name in the title', () => {
    expect(html).toContain('<title>ratiba &lt;booking&gt; · fail · Parley run run-1</title>');
  });
});

describe('writeRunHtml', () => {
  // Some 1.4 MB of case details: three chunks, each compressed on its own and written in turn.
  const many: RunReport = {
    ...report,
    results: Array.from({ length: 240 }, (_, index) =>
      result(`case_${String(index).padStart(3, '0')}`, { reason: `reason ${index} ${'ü'.repeat(6000 + index)}`, metrics: index % 3 === 0 ? [judged] : [metric('content_signals')] }),
    ),
  };

  it('hands out each chunk as soon as it is complete, before the cases after it are made, and the data last', () => {
    let made = 0;
    const steps = runPageSteps(many, (items) => ({ chunk: (made += 1), items: items.length }));
    const seen: number[] = [];
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done === true) {
        expect(step.value.join('')).toBe(runPageJson(many).data);
        break;
      }
      expect(made).toBe(step.value.chunk); // the one just made, not every chunk at once
      seen.push(step.value.chunk);
    }
    expect(seen).toEqual(runPageJson(many).chunks.map((_, index) => index + 1));
  });

  it('writes, piece by piece, the page built whole from the same data: every chunk in its place', () => {
    const file = writeRunHtml(join(mkdtempSync(join(tmpdir(), 'parley-html-')), 'out'), many);
    const made = runPageJson(many);
    expect(made.chunks.length).toBeGreaterThanOrEqual(3);
    const whole = htmlDocument({ title: `${many.suite} · ${many.status} · Parley run ${many.run_id}`, data: made.data, encodedChunks: made.chunks.map(encodeData) });
    expect(readFileSync(file, 'utf8')).toBe(whole);
    expect(renderRunHtml(many)).toBe(whole);
  });
});
