import { describe, expect, it } from 'vitest';
import { manualClock, type CallContext, type CompletionRequest, type CompletionResponse } from '@parley/core';
import { createRecorder } from '@parley/providers';
import { createCassette } from './cassette.js';

const context: CallContext = { role: 'agent', scenario_id: 'greeting', turn: 1 };
const request = (text: string): CompletionRequest => ({ provider: 'openai', model: 'gpt-4.1-mini', messages: [{ role: 'user', content: text }] });
const response = (content: string): CompletionResponse => ({
  content,
  tool_calls: [],
  finish_reason: 'stop',
  model: 'gpt-4.1-mini',
  usage: { input_tokens: 1, output_tokens: 1 },
  latency_ms: 5,
});

/** A recording of `attempts` attempts of a two-call conversation: "hello" then "bye", answered per attempt. */
function recording(attempts: number) {
  const recorder = createRecorder(manualClock());
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    recorder.add(request('hello'), response(`hello answer ${attempt}`), context);
    recorder.add(request('bye'), response(`bye answer ${attempt}`), context);
  }
  return { entries: recorder.entries, file: 'recordings/greeting.jsonl' };
}

async function playAttempts(attempts: number, recorded: number): Promise<string[][]> {
  const cassette = createCassette();
  const answers: string[][] = [];
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    cassette.startAttempt();
    const provider = cassette.replay(() => recording(recorded));
    answers.push([(await provider.complete(request('hello'), context)).content, (await provider.complete(request('bye'), context)).content]);
  }
  return answers;
}

describe('createCassette', () => {
  it('replays attempt k with the answers recorded in attempt k', async () => {
    expect(await playAttempts(3, 3)).toEqual([
      ['hello answer 1', 'bye answer 1'],
      ['hello answer 2', 'bye answer 2'],
      ['hello answer 3', 'bye answer 3'],
    ]);
  });

  it('starts over when the recording has fewer attempts than the run', async () => {
    expect(await playAttempts(3, 1)).toEqual([
      ['hello answer 1', 'bye answer 1'],
      ['hello answer 1', 'bye answer 1'],
      ['hello answer 1', 'bye answer 1'],
    ]);
    expect((await playAttempts(5, 2)).map(([first]) => first)).toEqual(['hello answer 1', 'hello answer 2', 'hello answer 1', 'hello answer 2', 'hello answer 1']);
  });

  it('still misses a request that was never recorded', async () => {
    const cassette = createCassette();
    cassette.startAttempt();
    await expect(cassette.replay(() => recording(1)).complete(request('something else'), context)).rejects.toThrow(/recording miss/);
  });

  it('shares one recorder between attempts', () => {
    const cassette = createCassette();
    const clock = manualClock();
    cassette.recorder(clock).add(request('hello'), response('one'), context);
    cassette.recorder(clock).add(request('hello'), response('two'), context);
    expect(cassette.recorder(clock).entries.map((entry) => entry.response.content)).toEqual(['one', 'two']);
  });
});
