import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock, type ChatMessage, type ScenarioResult, type Transcript } from '@parley/core';
import type { RecordingEntry } from '@parley/config';
import { createRecorder, writeRecording } from '@parley/providers';
import { keptRecordingPath, rerecordingsDir } from '@parley/runner';
import { openStore } from '@parley/store';

export const PRIVATE_SECRET = 'my neighbour Wanjiku hurts me';
export const OLD_REPLY = 'Sawa, nimeweka saa 10:00 Jumamosi.';
export const NEW_REPLY = 'Samahani, saa 10:00 imechukuliwa.';

/** A suite folder with recordings, a store with a live run and a replay run of it, and the live run's kept recordings. */
export interface RerecordedRun {
  folder: string;
  suiteDir: string;
  storePath: string;
  calibrationDir: string;
  liveOutDir: string;
  suiteRecording(id: string): string;
  keptRecording(id: string): string;
  result(id: 'happy' | 'private' | 'cached'): ScenarioResult;
  remove(): void;
}

const SUITE = `suite: spa
agents:
  booking: { kind: openai, model: gpt-4.1-mini }
redaction:
  identities: names.txt
`;

function scenarioFile(id: string, extra = ''): string {
  return `id: ${id}\nagent: booking\nlanguage: sw\n${extra}user:\n  opening: "Habari"\nexpect: []\n`;
}

/** The recording of a one-turn conversation whose answer is `reply`. */
function recording(opening: string, reply: string): RecordingEntry[] {
  const recorder = createRecorder(manualClock());
  const messages: ChatMessage[] = [{ role: 'user', content: opening }];
  recorder.add(
    { provider: 'openai', model: 'gpt-4.1-mini', messages },
    { content: reply, tool_calls: [], usage: { input_tokens: 10, output_tokens: 5 }, finish_reason: 'stop', model: 'gpt-4.1-mini', latency_ms: 5 },
    { role: 'agent', scenario_id: 'x', turn: 1 },
  );
  return recorder.entries;
}

function transcript(opening: string, reply: string): Transcript {
  return {
    ended_by: 'script',
    turns: [
      { role: 'user', content: opening, turn: 1 },
      { role: 'assistant', content: reply, turn: 1 },
    ],
  };
}

const HAPPY_OPENING = 'Habari! Mimi ni Zawadi Otieno, nataka massage Jumamosi.';

/** `replies`: the recorded and the new answer of `happy` (default OLD_REPLY and NEW_REPLY). */
export function createRerecordedRun(replies: { old?: string; new?: string } = {}): RerecordedRun {
  const oldReply = replies.old ?? OLD_REPLY;
  const newReply = replies.new ?? NEW_REPLY;
  const folder = mkdtempSync(join(tmpdir(), 'parley-triage-actions-'));
  const suiteDir = join(folder, 'suite');
  const write = (path: string, text: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };
  write(join(suiteDir, 'parley.yaml'), SUITE);
  write(join(suiteDir, 'names.txt'), 'Zawadi Otieno\n');
  write(join(suiteDir, 'scenarios', 'happy.yaml'), scenarioFile('happy'));
  write(join(suiteDir, 'scenarios', 'private.yaml'), scenarioFile('private', 'metadata_only: true\n'));
  write(join(suiteDir, 'scenarios', 'cached.yaml'), scenarioFile('cached'));
  writeRecording(join(suiteDir, 'recordings', 'happy.jsonl'), recording(HAPPY_OPENING, oldReply));
  writeRecording(join(suiteDir, 'recordings', 'private.jsonl'), recording(PRIVATE_SECRET, 'Pole sana.'));
  writeRecording(join(suiteDir, 'recordings', 'cached.jsonl'), recording('Habari', 'Karibu.'));

  const storePath = join(folder, '.parley', 'parley.db');
  const liveOutDir = join(folder, '.parley', 'runs', 'run-live');
  const keepDir = rerecordingsDir(storePath, 'run-live');
  writeRecording(keptRecordingPath(keepDir, 'happy'), recording(HAPPY_OPENING, newReply));
  writeRecording(keptRecordingPath(keepDir, 'private'), recording(PRIVATE_SECRET, 'Pole sana, piga 1195.'));
  writeRecording(keptRecordingPath(keepDir, 'cached'), recording('Habari', 'Karibu sana.'));

  const results: Record<'happy' | 'private' | 'cached', ScenarioResult> = {
    happy: base('happy', { status: 'fail', transcript: transcript(HAPPY_OPENING, newReply) }),
    private: base('private', { metadata_only: true, status: 'fail', transcript: transcript(PRIVATE_SECRET, 'Pole sana, piga 1195.') }),
    cached: base('cached', {
      transcript: transcript('Habari', 'Karibu sana.'),
      metrics: [{ metric: 'conversation_judge', version: '1.0.0', score: 0.9, threshold: 0.7, passed: true, reason: 'ok [cached verdict, cost 0]', details: { cached: true } }],
    }),
  };
  const store = openStore(storePath);
  try {
    for (const [id, mode, outDir] of [
      ['run-live', 'live', liveOutDir],
      ['run-replay', 'replay', join(folder, '.parley', 'runs', 'run-replay')],
    ] as const) {
      store.createRun({ id, suite: 'spa', mode, started_at: '2026-11-26T09:00:00.000Z', parley_version: '0.1.0', options: { suite_dir: suiteDir }, out_dir: outDir });
      store.saveScenarioResults(id, Object.values(results));
    }
  } finally {
    store.close();
  }
  return {
    folder,
    suiteDir,
    storePath,
    calibrationDir: join(folder, 'calibration'),
    liveOutDir,
    suiteRecording: (id) => readFileSync(join(suiteDir, 'recordings', `${id}.jsonl`), 'utf8'),
    keptRecording: (id) => readFileSync(keptRecordingPath(keepDir, id), 'utf8'),
    result: (id) => results[id],
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

function base(id: string, extra: Partial<ScenarioResult>): ScenarioResult {
  return {
    scenario_id: id,
    agent: 'booking',
    gate: 'blocking',
    tags: [],
    language: 'sw',
    metadata_only: false,
    status: 'pass',
    reason: `${id} reason`,
    metrics: [],
    cost: { input_tokens: 10, output_tokens: 5, usd: 0.0001, calls: 1 },
    ...extra,
  };
}
