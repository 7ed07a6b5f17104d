import type { Provider, Transcript } from '@parley/core';
import type { ModelRef } from '@parley/config';
import { startFakeLlm, type FakeLlmServer, type FakeScript, type LoggedRequest } from '@parley/fake-llm';
import { createLiveProvider } from '@parley/providers';
import type { JudgeCache, JudgeCacheEntry } from '../judge-cache.js';

/** A Swahili booking conversation: two assistant text messages (indexes 1 and 5) and a tool round. */
export const BOOKING_TRANSCRIPT: Transcript = {
  ended_by: 'script',
  turns: [
    { role: 'user', content: 'Habari! Nataka massage Jumamosi asubuhi.', turn: 1 },
    { role: 'assistant', content: 'Karibu! Ungependa saa ngapi?', turn: 1 },
    { role: 'user', content: 'Saa nne tafadhali.', turn: 2 },
    { role: 'assistant', content: '', turn: 2, tool_calls: [{ id: 'call_9', name: 'create_booking', args: { time: '10:00' } }] },
    { role: 'tool', content: '{"booking_id":"BK-1042"}', turn: 2, tool_name: 'create_booking', tool_mocked: true },
    { role: 'assistant', content: 'Nimekuwekea saa nne. Namba ya booking ni BK-1042.', turn: 2 },
  ],
};

export const OPENAI_JUDGE: ModelRef = { provider: 'openai', model: 'gpt-4.1' };
export const ANTHROPIC_JUDGE: ModelRef = { provider: 'anthropic', model: 'claude-opus-4-7' };

/** A fake LLM on 127.0.0.1 and real-SDK providers pointed at it. */
export async function fakeJudge(
  script: FakeScript,
): Promise<{ server: FakeLlmServer; provider(model: ModelRef): Provider; judgeCalls(): LoggedRequest[]; reset(): Promise<void> }> {
  const server = await startFakeLlm({ script });
  const env = { OPENAI_API_KEY: 'sk-test-judge', ANTHROPIC_API_KEY: 'sk-ant-test-judge', OPENAI_BASE_URL: server.openaiBaseUrl, ANTHROPIC_BASE_URL: server.anthropicBaseUrl };
  return {
    server,
    provider: (model) => createLiveProvider({ kind: model.provider }, env),
    judgeCalls: () => server.requests.filter((request) => request.api !== 'control'),
    // Empties the log and restarts every rule's `replies` sequence.
    reset: async () => {
      await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    },
  };
}

/** The text of every message of a logged OpenAI or Anthropic request, system prompt included. */
export function requestText(request: LoggedRequest): string {
  return JSON.stringify(request.body);
}

/** A JudgeCache in memory: the interface the SQLite store implements, for unit tests of the judging. */
export function memoryCache(): JudgeCache & { entries: Map<string, JudgeCacheEntry> } {
  const entries = new Map<string, JudgeCacheEntry>();
  return {
    entries,
    get: (key) => entries.get(key),
    put: (entry) => {
      entries.set(entry.key, entry);
    },
  };
}
