import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlmServer, type LoggedRequest } from '@parley/fake-llm';

/**
 * The fake LLM server whose answers the test releases one scenario at a time: every call is held
 * until `release(id)` (or `releaseAll()`), so a test sees the run mid-way without sleeping.
 * Scenario `sN`'s opening is `Habari sN`; the agent answers `Karibu!` (100,000 input tokens, so
 * $0.04 at the suite's price), except to the scenarios listed in `failing`, which it answers `Pole`.
 */
export interface HeldFakeLlm {
  server: FakeLlmServer;
  release(id: string): void;
  releaseAll(): void;
  /** Scenarios whose call has arrived at the server (held or answered). */
  arrived(): string[];
  close(): Promise<void>;
}

export async function startHeldFakeLlm(failing: readonly string[] = []): Promise<HeldFakeLlm> {
  const released = new Set<string>();
  const waiting = new Map<string, () => void>();
  let all = false;
  let current: LoggedRequest | undefined;
  const arrived: string[] = [];
  const server = await startFakeLlm({
    script: {
      defaults: { latency_ms: 1 },
      rules: [
        ...failing.map((id) => ({ when: { last_user: `/Habari ${id}$/` }, reply: { content: 'Pole', usage: { input_tokens: 100_000, output_tokens: 0 } } })),
        { reply: { content: 'Karibu!', usage: { input_tokens: 100_000, output_tokens: 0 } } },
      ],
    },
    // The server asks to wait right after it logged the request: `current` is that request.
    onRequest: (entry) => {
      current = entry;
    },
    wait: (_milliseconds, signal) => {
      const id = scenarioOf(current);
      arrived.push(id);
      if (all || released.has(id)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiting.set(id, resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    },
  });
  return {
    server,
    release(id) {
      released.add(id);
      waiting.get(id)?.();
      waiting.delete(id);
    },
    releaseAll() {
      all = true;
      for (const resolve of waiting.values()) resolve();
      waiting.clear();
    },
    arrived: () => [...arrived],
    close: () => server.close(),
  };
}

function scenarioOf(entry: LoggedRequest | undefined): string {
  const messages = (entry?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages ?? [];
  const lastUser = messages.findLast((message) => message.role === 'user');
  const match = typeof lastUser?.content === 'string' ? /Habari (\S+)/.exec(lastUser.content) : null;
  return match?.[1] ?? '?';
}

/** A live suite of scenarios `ids` (each one user turn to the fake's agent), in a fresh temp folder. */
export function writeLiveSuite(ids: readonly string[], settings = 'concurrency: 2'): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-tui-live-'));
  mkdirSync(join(dir, 'scenarios'), { recursive: true });
  writeFileSync(
    join(dir, 'parley.yaml'),
    `suite: live_tui
agents:
  booking: { kind: openai, model: gpt-4.1-mini }
pricing:
  gpt-4.1-mini: { input: 0.40, output: 1.60 }
settings: { ${settings} }
`,
  );
  for (const id of ids) {
    writeFileSync(join(dir, 'scenarios', `${id}.yaml`), `id: ${id}\nagent: booking\nuser: { opening: "Habari ${id}" }\nexpect:\n  - { metric: content_signals, required: ["Karibu"] }\n`);
  }
  return dir;
}

/** What the fake's agent needs from the environment: its address and a (fake) key. */
export function fakeLlmEnv(server: FakeLlmServer): NodeJS.ProcessEnv {
  return { OPENAI_API_KEY: 'sk-test-LIVE-TUI-0123456789', OPENAI_BASE_URL: server.openaiBaseUrl, NO_COLOR: '1' };
}
