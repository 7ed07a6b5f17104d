import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type CompletionRequest, type ProviderKind } from '@parley/core';
import { RecordingEntrySchema } from '@parley/config';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { createAnthropicProvider } from './anthropic-provider.js';
import { createOpenAiProvider } from './openai-provider.js';
import { isProviderError } from './provider-error.js';
import { createRecorder, recordingProvider, writeRecording } from './recording.js';
import { readRecording } from './read-recording.js';
import { createReplayProvider } from './replay.js';

const FAKE_KEY = 'sk-test-RECORDKEY-0123456789';

let server: FakeLlmServer;

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        {
          name: 'availability',
          when: { last_user: 'massage', last_message_role: 'user' },
          reply: { tool_calls: [{ name: 'check_availability', args: { day: 'saturday', service: 'massage_60' } }] },
        },
        {
          name: 'offer',
          when: { last_tool: 'check_availability' },
          reply: { content: 'Tuna nafasi Jumamosi saa 4:00 asubuhi.', usage: { input_tokens: 80, output_tokens: 12 } },
        },
      ],
    },
  });
});

afterAll(async () => {
  await server?.close();
});

const tools = [
  {
    name: 'check_availability',
    description: 'Free slots for a service on a day',
    parameters: { type: 'object', properties: { day: { type: 'string' }, service: { type: 'string' } }, required: ['day'] },
  },
];

function liveProvider(kind: ProviderKind) {
  return kind === 'anthropic'
    ? createAnthropicProvider({ apiKey: FAKE_KEY, baseURL: server.anthropicBaseUrl })
    : createOpenAiProvider({ apiKey: FAKE_KEY, baseURL: server.openaiBaseUrl });
}

describe.each(['openai', 'anthropic'] as const)('recording through the real %s SDK, then replaying offline', (kind) => {
  it('records a tool-call round trip and replays it with no server at all', async () => {
    const recorder = createRecorder(manualClock());
    const provider = recordingProvider(liveProvider(kind), recorder);
    const first: CompletionRequest = {
      provider: kind,
      model: kind === 'anthropic' ? 'claude-sonnet-4-6' : 'gpt-4.1-mini',
      system: 'You book spa appointments.',
      messages: [{ role: 'user', content: 'Nataka massage Jumamosi' }],
      tools,
      temperature: 0,
    };
    const context = { role: 'agent' as const, scenario_id: `rec_${kind}`, turn: 1 };
    const toolTurn = await provider.complete(first, context);
    expect(toolTurn.tool_calls).toEqual([
      expect.objectContaining({ name: 'check_availability', args: { day: 'saturday', service: 'massage_60' } }),
    ]);
    const second: CompletionRequest = {
      ...first,
      messages: [
        ...first.messages,
        { role: 'assistant', content: toolTurn.content, tool_calls: toolTurn.tool_calls },
        { role: 'tool', tool_call_id: toolTurn.tool_calls[0]!.id!, name: 'check_availability', content: '{"slots":["10:00"]}' },
      ],
    };
    const answer = await provider.complete(second, context);
    expect(answer.content).toBe('Tuna nafasi Jumamosi saa 4:00 asubuhi.');
    expect(answer.usage).toEqual({ input_tokens: 80, output_tokens: 12 });

    const file = join(mkdtempSync(join(tmpdir(), 'parley-rec-')), `rec_${kind}.jsonl`);
    writeRecording(file, recorder.entries);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(FAKE_KEY);
    const entries = readRecording(file);
    expect(entries.map((entry) => entry.role)).toEqual(['agent', 'agent']);
    expect(entries[0]).toMatchObject({ v: 1, provider: kind, model: first.model, recorded_at: '2026-01-01T00:00:00.000Z' });

    const replay = createReplayProvider(entries, file);
    const callsBefore = server.requests.length;
    expect(await replay.complete(first, context)).toMatchObject({ tool_calls: toolTurn.tool_calls, latency_ms: entries[0]!.latency_ms });
    expect((await replay.complete(second, context)).content).toBe(answer.content);
    expect(server.requests.length).toBe(callsBefore);
  });
});

describe('replay misses', () => {
  it('names scenario, turn and role and shows what differs from the closest recorded request', async () => {
    const recorder = createRecorder(manualClock());
    const request: CompletionRequest = {
      provider: 'openai',
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Nataka massage Jumamosi' }],
      tools,
    };
    const provider = recordingProvider(liveProvider('openai'), recorder);
    await provider.complete(request, { role: 'agent', scenario_id: 'miss', turn: 1 });
    const replay = createReplayProvider(recorder.entries, 'recordings/miss.jsonl');
    const changed = { ...request, messages: [{ role: 'user' as const, content: 'Nataka massage Jumapili' }] };
    const error = await replay.complete(changed, { role: 'agent', scenario_id: 'miss', turn: 3 }).catch((caught: unknown) => caught);
    expect(isProviderError(error)).toBe(true);
    if (!isProviderError(error)) return;
    expect(error.kind).toBe('replay_miss');
    expect(error.message).toContain('scenario miss, turn 3, role agent');
    expect(error.details).toContain('- "content": "Nataka massage Jumamosi"');
    expect(error.details).toContain('+ "content": "Nataka massage Jumapili"');
  });

  it('repeated identical requests take the recorded answers in order, then miss', async () => {
    const recorder = createRecorder(manualClock());
    const request: CompletionRequest = { provider: 'openai', model: 'm', messages: [{ role: 'user', content: 'same' }] };
    const response = { content: '', tool_calls: [], usage: { input_tokens: 1, output_tokens: 1 }, finish_reason: 'stop', model: 'm', latency_ms: 5 };
    const context = { role: 'judge' as const, scenario_id: 'rep', turn: 0 };
    recorder.add(request, { ...response, content: 'first' }, context);
    recorder.add(request, { ...response, content: 'second' }, context);
    const replay = createReplayProvider(recorder.entries, 'rep.jsonl');
    expect((await replay.complete(request, context)).content).toBe('first');
    expect((await replay.complete(request, context)).content).toBe('second');
    await expect(replay.complete(request, context)).rejects.toMatchObject({ kind: 'replay_miss' });
  });

  it('a missing recording says how to record it', async () => {
    const entries = readRecording(join(tmpdir(), 'does-not-exist-parley.jsonl'));
    const replay = createReplayProvider(entries, 'recordings/none.jsonl');
    await expect(
      replay.complete({ provider: 'openai', model: 'm', messages: [] }, { role: 'agent', scenario_id: 'none', turn: 1 }),
    ).rejects.toMatchObject({ kind: 'replay_miss', details: expect.stringContaining('--mode record --scenario none') });
  });
});

describe('preloadRecording', () => {
  it('answers readRecording from memory until released, and leaves missing files to readRecording', async () => {
    const { preloadRecording } = await import('./read-recording.js');
    const { rmSync } = await import('node:fs');
    const recorder = createRecorder(manualClock());
    const request: CompletionRequest = { provider: 'openai', model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    const response = { content: 'ok', tool_calls: [], usage: { input_tokens: 1, output_tokens: 1 }, finish_reason: 'stop', model: 'm', latency_ms: 5 };
    recorder.add(request, response, { role: 'agent', scenario_id: 'pre', turn: 1 });
    const file = join(mkdtempSync(join(tmpdir(), 'parley-pre-')), 'pre.jsonl');
    writeRecording(file, recorder.entries);

    const release = preloadRecording(file);
    rmSync(file);
    expect(readRecording(file).map((entry) => entry.response.content)).toEqual(['ok']);
    release();
    expect(readRecording(file)).toEqual([]);
    const releaseMissing = preloadRecording(file);
    expect(readRecording(file)).toEqual([]);
    releaseMissing();
  });
});

describe('readRecording validation', () => {
  const key = 'a'.repeat(64);
  const entry = {
    v: 1,
    role: 'agent',
    key,
    turn: 2,
    provider: 'openai',
    model: 'gpt-4.1-mini',
    request: { provider: 'openai', model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Habari' }] },
    response: { content: '', tool_calls: [{ id: 'call_1', name: 'check_availability', args: { day: 'sat' } }], finish_reason: 'tool_calls', model: 'gpt-4.1-mini-2025' },
    usage: { input_tokens: 10, output_tokens: 3 },
    latency_ms: 12.5,
    recorded_at: '2026-01-01T00:00:00.000Z',
  };

  async function read(lines: unknown[]): Promise<unknown[]> {
    const { writeFileSync } = await import('node:fs');
    const file = join(mkdtempSync(join(tmpdir(), 'parley-lines-')), 'lines.jsonl');
    writeFileSync(file, `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`);
    return readRecording(file);
  }

  it('gives exactly the schema-parsed entries (same values, same key order) for every shape of valid line', async () => {
    const { turn: _turn, ...withoutTurn } = entry;
    const reordered = Object.fromEntries(Object.entries(entry).reverse());
    const lines = [
      entry,
      withoutTurn,
      reordered,
      { ...entry, role: 'judge', provider: 'service', response: { ...entry.response, tool_calls: [{ name: 'x', args: {} }], state: 'booked' } },
      { ...entry, extra: 'dropped by the schema' },
      { ...entry, response: { ...entry.response, tool_calls: [{ name: 'x', args: {}, extra: 1 }] } },
    ];
    const entries = await read(lines);
    expect(entries.map((each) => JSON.stringify(each))).toEqual(lines.map((line) => JSON.stringify(RecordingEntrySchema.parse(line))));
  });

  it('names the file and line of a damaged or invalid line', async () => {
    // The column where the line stops being JSON, as an editor jumps to it.
    await expect(read([entry, '{"v":1,'])).rejects.toThrow(/lines\.jsonl:2:8: not valid JSON/);
    await expect(read([entry, entry, { ...entry, usage: { input_tokens: -1, output_tokens: 0 } }])).rejects.toThrow(/lines\.jsonl:3:1: not a recording entry: usage\.input_tokens/);
    await expect(read([{ ...entry, key: 'short' }])).rejects.toThrow(/lines\.jsonl:1:1: not a recording entry: key/);
    await expect(read([{ ...entry, turn: 1.5 }])).rejects.toThrow(/:1:1: not a recording entry: turn/);
    await expect(read([{ ...entry, response: { ...entry.response, tool_calls: [{ name: 'x', args: [] }] } }])).rejects.toThrow(/:1:1: not a recording entry: response\.tool_calls\.0\.args/);
  });
});
