import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer, type Rule } from '@parley/fake-llm';
import { openJudgeCache } from '@parley/store';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCalibrationSet } from '../set-file/calibration-set-file.js';
import { openCalibrationStore, type CalibrationStore } from '../store/calibration-store.js';
import { setWithItems } from '../test-support/calibration-fixture.js';
import { answer, rubricFixture, ruleFor } from '../test-support/judge-fixture.js';
import type { CalibrationRaters } from './rater-models.js';
import { runJudgeSession, type JudgeMode, type JudgeSessionInput } from './run-judge-session.js';

const RATERS: CalibrationRaters = {
  judge: { provider: 'anthropic', model: 'claude-opus-4-7', temperature: 0 },
  cross_check: { provider: 'openai', model: 'gpt-4.1', temperature: 0 },
};

const set = parseCalibrationSet(setWithItems(3), 'human_labelled.yaml');
const rubric = rubricFixture();

let server: FakeLlmServer | undefined;
/** One clock for every session of a test file: sessions get later start times and distinct ids. */
const clock = manualClock(new Date('2026-12-07T09:00:00Z'));
let sessions = 0;
const stores: CalibrationStore[] = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const store of stores.splice(0)) store.close();
});

/** Both judges answer every item; `override` replaces the rules of some (model, item). */
function script(override: Rule[] = []): { rules: Rule[] } {
  const rules: Rule[] = [...override];
  for (let index = 0; index < 3; index += 1) {
    rules.push(ruleFor('claude-opus-4-7', index, { reply: { content: answer(5 - index, 4, 4 - index, `judge on ${index}`) } }));
    rules.push(ruleFor('gpt-4.1', index, { reply: { content: answer(4, 4 - index, 3, `cross-check on ${index}`), usage: { input_tokens: 1000, output_tokens: 50 } } }));
  }
  return { rules };
}

function advanced() {
  clock.advance(60_000);
  return clock;
}

function workspace(): { dir: string; database: string; recording: string } {
  const dir = mkdtempSync(join(tmpdir(), 'parley-judge-'));
  return { dir, database: join(dir, '.parley', 'parley.db'), recording: join(dir, 'recordings', 'judge.jsonl') };
}

async function session(mode: JudgeMode, paths: ReturnType<typeof workspace>, extra: Partial<JudgeSessionInput> = {}) {
  const store = openCalibrationStore(paths.database);
  stores.push(store);
  const env = server ? { ANTHROPIC_BASE_URL: server.anthropicBaseUrl, OPENAI_BASE_URL: server.openaiBaseUrl, ANTHROPIC_API_KEY: 'sk-fake', OPENAI_API_KEY: 'sk-fake' } : {};
  return runJudgeSession(
    { set, setPath: 'calibration', rubric, raters: RATERS, mode, recordingFile: paths.recording, store, resilience: { retry: { maxRetries: 0 } }, ...extra },
    { clock: advanced(), random: seededRandom((sessions += 1)), env },
  );
}

describe('runJudgeSession (real SDKs against tools/fake-llm)', () => {
  it('records every rating, then replays the same ratings without any network', async () => {
    server = await startFakeLlm({ script: script() });
    const paths = workspace();
    const recorded = await session('record', paths);
    expect(recorded.recording).toEqual({ file: paths.recording, written: true, calls: 6 });
    expect(recorded.ratings.map((rating) => [rating.item_id, rating.rater, rating.scores, rating.error])).toEqual([
      ['cal-2026-11-001', 'judge', { intent_comprehension: 5, response_naturalness: 4, cultural_appropriateness: 4 }, null],
      ['cal-2026-11-001', 'cross_check', { intent_comprehension: 4, response_naturalness: 4, cultural_appropriateness: 3 }, null],
      ['cal-2026-11-002', 'judge', { intent_comprehension: 4, response_naturalness: 4, cultural_appropriateness: 3 }, null],
      ['cal-2026-11-002', 'cross_check', { intent_comprehension: 4, response_naturalness: 3, cultural_appropriateness: 3 }, null],
      ['cal-2026-11-003', 'judge', { intent_comprehension: 3, response_naturalness: 4, cultural_appropriateness: 2 }, null],
      ['cal-2026-11-003', 'cross_check', { intent_comprehension: 4, response_naturalness: 2, cultural_appropriateness: 3 }, null],
    ]);
    // The recording lists the calls in the set's order, whatever order the answers came in.
    const entries = readFileSync(paths.recording, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { model: string; role: string });
    expect(entries.map((entry) => `${entry.role}:${entry.model}`)).toEqual(Array.from({ length: 3 }, () => ['judge:claude-opus-4-7', 'judge:gpt-4.1']).flat());
    // The judge saw the rubric, the masked conversation and the schema, never an agent model.
    const judgeRequest = server.requests.find((request) => request.api === 'anthropic')!.body as { system: string; tool_choice: unknown; messages: Array<{ content: string }> };
    expect(judgeRequest.system).toContain('Rubric (version 1.0.0)');
    expect(judgeRequest.tool_choice).toEqual({ type: 'tool', name: expect.any(String) });
    const callsBefore = server.requests.length;
    await server.close();
    server = undefined;

    const replayed = await session('replay', paths);
    expect(replayed.ratings.map((rating) => [rating.item_id, rating.rater, rating.scores])).toEqual(
      recorded.ratings.map((rating) => [rating.item_id, rating.rater, rating.scores]),
    );
    expect(replayed.cost_usd).toBe(0);
    expect(callsBefore).toBe(6);
    const store = stores[1]!;
    expect(store.sessions('calibration').map((stored) => [stored.mode, stored.finished_at !== null])).toEqual([
      ['replay', true],
      ['record', true],
    ]);
    expect(store.ratings(replayed.session.id)).toHaveLength(6);
  });

  it('asks once more after an unusable answer, then records an error with the raw output; the session goes on', async () => {
    server = await startFakeLlm({
      script: script([
        ruleFor('claude-opus-4-7', 0, { replies: [{ content: 'I think it is a 4.' }, { content: answer(4, 4, 4) }] }),
        ruleFor('claude-opus-4-7', 1, { reply: { content: answer(6, 4, 4) } }),
        ruleFor('gpt-4.1', 2, { fault: { kind: 'status', status: 500 } }),
      ]),
    });
    const result = await session('live', workspace());
    const byKey = new Map(result.ratings.map((rating) => [`${rating.item_id}/${rating.rater}`, rating]));
    expect(byKey.get('cal-2026-11-001/judge')).toMatchObject({ scores: { intent_comprehension: 4 }, error: null });
    expect(byKey.get('cal-2026-11-002/judge')).toMatchObject({
      scores: null,
      error: 'unusable answer twice: intent_comprehension is 6, not a whole number from 1 to 5',
      raw_output: expect.stringContaining('"intent_comprehension":6'),
    });
    expect(byKey.get('cal-2026-11-003/cross_check')).toMatchObject({ scores: null, error: expect.stringMatching(/^http: .*500/) });
    expect(result.ratings.filter((rating) => rating.error === null)).toHaveLength(4);
    // Retry of item 1 and the two answers of item 2: the judge was asked 5 times for 3 items.
    expect(server.requests.filter((request) => request.api === 'anthropic')).toHaveLength(5);
  });

  it('does not overwrite a recording when some call failed', async () => {
    server = await startFakeLlm({ script: script([ruleFor('gpt-4.1', 1, { fault: { kind: 'status', status: 503 } })]) });
    const result = await session('record', workspace());
    expect(result.recording).toMatchObject({ written: false, reason: '1 calls failed; the old recording is kept' });
  });

  it('goes through the judge cache in live mode: the same items and rubric make no second call', async () => {
    server = await startFakeLlm({ script: script() });
    const paths = workspace();
    const cache = openJudgeCache(paths.database);
    try {
      const first = await session('live', paths, { cache });
      expect(first.ratings.every((rating) => !rating.cached)).toBe(true);
      const calls = server.requests.length;
      const second = await session('live', paths, { cache });
      expect(server.requests.length).toBe(calls);
      expect(second.ratings.every((rating) => rating.cached && rating.cost_usd === 0)).toBe(true);
      expect(second.ratings.map((rating) => rating.scores)).toEqual(first.ratings.map((rating) => rating.scores));
      expect(cache.stats().by_metric.map((group) => group.name)).toEqual([expect.stringMatching(/^calibration@1\.0\.0\+[0-9a-f]{12}$/)]);
      // Another rubric text is another cache key, even under the same version.
      const edited = rubricFixture(`---\nversion: 1.0.0\n---\n# Rubric\nRate strictly.\n`);
      await session('live', paths, { cache, rubric: edited });
      expect(server.requests.length).toBe(calls + 6);
    } finally {
      cache.close();
    }
  });

  it('names the calibration commands when the recording has no answer for an item', async () => {
    const result = await session('replay', workspace());
    expect(result.ratings[0]?.error).toMatch(/^replay_miss: .*no recording at .*judge\.jsonl.*`parley calibrate judge --mode live`.*`--mode record`/);
  });
});
