import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom, type ScenarioResult } from '@parley/core';
import type { RecordingEntry } from '@parley/config';
import { loadFakeScript, startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { diffConversations, readRecording, recordedConversation } from '@parley/providers';
import { openStore } from '@parley/store';
import {
  acceptRerecording,
  keptRecordingPath,
  loadRerecording,
  recordingKeeper,
  replacedRecordingPath,
  rerecordingGap,
  rerecordingsDir,
} from './rerecording.js';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { locateTriage } from './triage-location.js';
import { SPA_SUITE, writeTempSuite } from './test-support/temp-suite.js';

const FAKE_KEY = 'sk-test-RERECORDKEY-abcdef123456';
const ORIGINAL_REPLY = 'Sawa, nimeweka saa 10:00 Jumamosi.';
const NEW_REPLY = 'Sawa kabisa, saa 10:00 Jumamosi imethibitishwa.';

let original: FakeLlmServer;
let changed: FakeLlmServer;
let suiteDir: string;
let seed = 100;

function dependencies(env: NodeJS.ProcessEnv): RunDependencies {
  seed += 1;
  return { cwd: suiteDir, env, clock: manualClock(), random: seededRandom(seed) };
}

const live = (server: FakeLlmServer) => ({ OPENAI_API_KEY: FAKE_KEY, OPENAI_BASE_URL: server.openaiBaseUrl });
const suiteRecording = () => readFileSync(join(suiteDir, 'recordings', 'happy.jsonl'), 'utf8');
/** Where a run of the suite keeps its re-recordings: beside the run history, never in the shared --out folder. */
const keepDir = (runId: string) => rerecordingsDir(join(suiteDir, '.parley', 'parley.db'), runId);

beforeAll(async () => {
  suiteDir = writeTempSuite({
    ...SPA_SUITE,
    'fake-llm-changed.yaml': SPA_SUITE['fake-llm.yaml']!.replace(ORIGINAL_REPLY, NEW_REPLY),
  });
  original = await startFakeLlm({ script: loadFakeScript(join(suiteDir, 'fake-llm.yaml')) });
  changed = await startFakeLlm({ script: loadFakeScript(join(suiteDir, 'fake-llm-changed.yaml')) });
});

afterAll(async () => {
  await original?.close();
  await changed?.close();
});

describe('re-recordings kept by live and record runs', () => {
  let firstRecording: string;

  it('record mode writes the suite recording and keeps the same file beside the history; nothing was replaced', async () => {
    const outcome = await runSuite({ suitePath: suiteDir, mode: 'record', globs: ['happy'], outDir: 'out/record-1' }, dependencies(live(original)));
    firstRecording = suiteRecording();
    expect(firstRecording).toContain(ORIGINAL_REPLY);
    expect(readFileSync(keptRecordingPath(keepDir(outcome.run_id), 'happy'), 'utf8')).toBe(firstRecording);
    expect(existsSync(replacedRecordingPath(keepDir(outcome.run_id), 'happy'))).toBe(false);
    expect(firstRecording).not.toContain(FAKE_KEY);

    const rerecording = loadRerecording({ mode: 'record', keepDir: keepDir(outcome.run_id), recordingsDir: join(suiteDir, 'recordings'), scenarioId: 'happy' });
    expect(rerecording?.accepted).toBe(true);
    expect(rerecording?.recorded).toEqual([]); // a first recording is all new
  });

  it('a live run keeps its recording beside the history, not in --out, and leaves the suite recording alone; accepting writes it', async () => {
    const outcome = await runSuite({ suitePath: suiteDir, mode: 'live', globs: ['happy'], outDir: 'out/live' }, dependencies(live(changed)));
    expect(suiteRecording()).toBe(firstRecording);
    const keptText = readFileSync(keptRecordingPath(keepDir(outcome.run_id), 'happy'), 'utf8');
    expect(keptText).toContain(NEW_REPLY);
    expect(keptText).not.toContain(FAKE_KEY);
    expect(existsSync(join(keepDir(outcome.run_id), 'replaced'))).toBe(false);
    // The --out folder (reports, shared by CI) holds no recording.
    expect(existsSync(join(outcome.out_dir, 'recordings'))).toBe(false);

    // What triage reads: the run row tells where the suite and the out dir are.
    const store = openStore(join(suiteDir, '.parley', 'parley.db'));
    const run = store.getRun(outcome.run_id)!;
    const result = store.getScenarioResults(outcome.run_id)[0]!;
    store.close();
    const location = locateTriage(run, 'happy', { suitePath: '/nowhere', storePath: join(suiteDir, '.parley', 'parley.db'), cwd: suiteDir });
    expect(location.keepDir).toBe(keepDir(outcome.run_id));
    expect(location.scenarioFile).toBe(join(suiteDir, 'scenarios', 'happy.yaml'));
    const rerecording = loadRerecording({ ...location, scenarioId: 'happy' })!;
    expect(rerecording.accepted).toBe(false);

    const diff = await diffConversations(recordedConversation(rerecording.recorded), recordedConversation(rerecording.kept));
    expect(diff.lines.filter((line) => line.kind !== 'same').map(({ kind, text }) => ({ kind, text }))).toEqual([
      { kind: 'removed', text: `assistant: ${ORIGINAL_REPLY}` },
      { kind: 'added', text: `assistant: ${NEW_REPLY}` },
    ]);

    expect(acceptRerecording(rerecording, { result })).toEqual({ accepted: true, file: join(suiteDir, 'recordings', 'happy.jsonl'), unchanged: false });
    expect(suiteRecording()).toBe(keptText);
    expect(loadRerecording({ ...location, scenarioId: 'happy' })?.accepted).toBe(true);
    expect(acceptRerecording(loadRerecording({ ...location, scenarioId: 'happy' })!, { result })).toMatchObject({ accepted: true, unchanged: true });

    // The accepted recording is complete: an offline replay answers every call from it.
    const replay = await runSuite({ suitePath: suiteDir, mode: 'replay', globs: ['happy'], outDir: 'out/replay-accepted' }, dependencies({}));
    expect(replay.report.results[0]).toMatchObject({ status: 'pass' });
    expect(JSON.stringify(replay.report.results[0]!.transcript)).toContain(NEW_REPLY);
  });

  it('record mode keeps the recording it replaced, and triage compares the new conversation with it', async () => {
    const before = suiteRecording();
    const outcome = await runSuite({ suitePath: suiteDir, mode: 'record', globs: ['happy'], outDir: 'out/record-2' }, dependencies(live(original)));
    expect(readFileSync(replacedRecordingPath(keepDir(outcome.run_id), 'happy'), 'utf8')).toBe(before);
    expect(suiteRecording()).toContain(ORIGINAL_REPLY);
    const rerecording = loadRerecording({ mode: 'record', keepDir: keepDir(outcome.run_id), recordingsDir: join(suiteDir, 'recordings'), scenarioId: 'happy' })!;
    expect(rerecording.accepted).toBe(true);
    const diff = await diffConversations(recordedConversation(rerecording.recorded), recordedConversation(rerecording.kept));
    expect(diff.lines.filter((line) => line.kind !== 'same').map((line) => line.kind + ' ' + line.text)).toEqual([
      `removed assistant: ${NEW_REPLY}`,
      `added assistant: ${ORIGINAL_REPLY}`,
    ]);
  });

  it('a replay run keeps nothing', async () => {
    const outcome = await runSuite({ suitePath: suiteDir, mode: 'replay', globs: ['happy'], outDir: 'out/replay' }, dependencies({}));
    expect(existsSync(keepDir(outcome.run_id))).toBe(false);
    expect(loadRerecording({ mode: 'replay', keepDir: keepDir(outcome.run_id), recordingsDir: join(suiteDir, 'recordings'), scenarioId: 'happy' })).toBeUndefined();
  });
});

describe('recordingKeeper', () => {
  const entry = (content: string): RecordingEntry => ({
    v: 1,
    role: 'agent',
    key: 'a'.repeat(64),
    turn: 1,
    provider: 'openai',
    model: 'gpt-4.1-mini',
    request: { messages: [{ role: 'user', content: 'hi' }] },
    response: { content, tool_calls: [], finish_reason: 'stop', model: 'gpt-4.1-mini' },
    usage: { input_tokens: 1, output_tokens: 1 },
    latency_ms: 1,
    recorded_at: '2026-11-26T00:00:00.000Z',
  });

  function folders() {
    const root = writeTempSuite({ 'recordings/s.jsonl': `${JSON.stringify(entry('old'))}\n` });
    return { recordingsDir: join(root, 'recordings'), keepDir: join(root, '.parley', 'rerecordings', 'run-1'), root };
  }

  it('copies the original only once per scenario, although the recording is saved again with the judge calls', async () => {
    const { recordingsDir, keepDir } = folders();
    const keeper = recordingKeeper({ mode: 'record', recordingsDir, keepDir });
    await keeper.save('s', [entry('new')]);
    await keeper.save('s', [entry('new'), entry('judge')]);
    expect(readRecording(replacedRecordingPath(keepDir, 's')).map((saved) => saved.response.content)).toEqual(['old']);
    expect(readRecording(join(recordingsDir, 's.jsonl')).map((saved) => saved.response.content)).toEqual(['new', 'judge']);
    expect(readRecording(keptRecordingPath(keepDir, 's')).map((saved) => saved.response.content)).toEqual(['new', 'judge']);
  });

  it('under --resume keeps the original the interrupted run copied', async () => {
    const { recordingsDir, keepDir } = folders();
    await recordingKeeper({ mode: 'record', recordingsDir, keepDir }).save('s', [entry('half-done')]);
    await recordingKeeper({ mode: 'record', recordingsDir, keepDir, resumed: true }).save('s', [entry('finished')]);
    expect(readRecording(replacedRecordingPath(keepDir, 's')).map((saved) => saved.response.content)).toEqual(['old']);
    expect(readRecording(join(recordingsDir, 's.jsonl')).map((saved) => saved.response.content)).toEqual(['finished']);
  });

  it('forgets a replaced recording that is not this run’s, when there was none to replace', async () => {
    const { recordingsDir, keepDir } = folders();
    mkdirSync(join(keepDir, 'replaced'), { recursive: true });
    writeFileSync(replacedRecordingPath(keepDir, 'fresh'), `${JSON.stringify(entry('stale'))}\n`);
    await recordingKeeper({ mode: 'record', recordingsDir, keepDir }).save('fresh', [entry('new')]);
    expect(existsSync(replacedRecordingPath(keepDir, 'fresh'))).toBe(false);
  });

  it('keeps no second copy when the out dir would put it on the suite recording itself', async () => {
    const { recordingsDir, root } = folders();
    await recordingKeeper({ mode: 'live', recordingsDir, keepDir: recordingsDir }).save('s', [entry('live')]);
    // A live run never writes the suite's recording, and here the kept path is the suite's file.
    expect(readRecording(join(recordingsDir, 's.jsonl')).map((saved) => saved.response.content)).toEqual(['old']);
    expect(existsSync(join(root, 'recordings', 'replaced'))).toBe(false);
  });
});

describe('rerecordingGap', () => {
  const result = (metrics: ScenarioResult['metrics']) => ({ scenario_id: 'spa_happy', metrics });
  const judged = { metric: 'conversation_judge', version: '1.0.0', score: 0.9, threshold: 0.7, passed: true, reason: 'ok' };

  it('refuses a recording whose judge verdicts came from the cache or were replayed', () => {
    expect(rerecordingGap(result([judged]), undefined)).toBeUndefined();
    expect(rerecordingGap(result([{ ...judged, details: { cached: true } }]), undefined)).toBe('conversation_judge came from the judge cache');
    expect(rerecordingGap(result([judged]), 'replay')).toBe('the run replayed its judges');
  });

  it('makes acceptRerecording refuse without writing', () => {
    const root = writeTempSuite({ 'recordings/s.jsonl': 'untouched\n' });
    const outcome = acceptRerecording(
      { scenarioId: 's', keptFile: '', kept: [], recordingFile: join(root, 'recordings/s.jsonl'), recorded: [], accepted: false },
      { result: result([{ ...judged, details: { cached: true } }]) },
    );
    expect(outcome).toEqual({
      accepted: false,
      reason: "conversation_judge came from the judge cache, so the judge calls are not in the run's recording; re-record it with: parley run --mode record --scenario spa_happy",
    });
    expect(readFileSync(join(root, 'recordings/s.jsonl'), 'utf8')).toBe('untouched\n');
  });
});

describe('locateTriage', () => {
  it('finds a scenario file in a subfolder of the scenarios glob, from the fallback suite path', () => {
    const root = writeTempSuite({
      'parley.yaml': 'suite: s\nrecordings: tapes\nagents:\n  a: { kind: openai, model: m }\n',
      'scenarios/from_production/sub_case.yaml': 'id: sub_case\nagent: a\nvertical: salon\nuser: { opening: hi }\nexpect: []\n',
    });
    const location = locateTriage({ id: 'run-x', mode: 'live', out_dir: 'out/x', options: {} }, 'sub_case', { suitePath: root, storePath: '.parley/parley.db', cwd: '/' });
    expect(location).toMatchObject({
      suiteDir: root,
      recordingsDir: join(root, 'tapes'),
      outDir: '/out/x',
      keepDir: '/.parley/rerecordings/run-x',
      scenarioFile: join(root, 'scenarios', 'from_production', 'sub_case.yaml'),
      scenario: { id: 'sub_case', vertical: 'salon' },
    });
    expect(locateTriage({ id: 'r', mode: 'live', out_dir: 'o', options: {} }, 'missing', { suitePath: root, storePath: 'p.db', cwd: '/' }).scenarioFile).toBeUndefined();
  });
  it('finds the file of a variant (and of a variant of another agent) by the scenario id before the brackets', () => {
    const root = writeTempSuite({
      'parley.yaml': 'suite: s\nagents:\n  a: { kind: openai, model: m }\n',
      'scenarios/greet.yaml': 'id: greet\nagent: a\nvars: { lang: [en, zu] }\nuser: { opening: "{{lang}}" }\n',
    });
    for (const id of ['greet[lang=zu]', 'greet[lang=zu]@b']) {
      expect(locateTriage({ id: 'r', mode: 'live', out_dir: 'o', options: {} }, id, { suitePath: root, storePath: 'p.db', cwd: '/' }).scenarioFile).toBe(join(root, 'scenarios', 'greet.yaml'));
    }
  });
});
