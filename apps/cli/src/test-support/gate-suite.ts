import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { manualClock, seededRandom } from '@parley/core';
import { parseFakeScript, startFakeLlm, type FakeScript } from '@parley/fake-llm';
import { main } from '../main.js';
import { captureOutput } from './capture-output.js';

/** `{ k01: 1, …, kNN: 1 }`: the arguments a lookup is expected to carry. */
function keys(count: number, value: (index: number) => number = () => 1): Record<string, number> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${String(index + 1).padStart(2, '0')}`, value(index)]));
}

/**
 * A suite whose `tool_correctness` scores are exactly the numbers of the baseline examples: `q_1` calls its
 * tool with 17 of 20 arguments right (0.85), `q_2` with 41 of 50 (0.82). `greeting` is answered
 * "Karibu!", "Hi.", "Karibu sana!" in turn, so recorded three times it passes 2 of 3 times;
 * `smalltalk` is an advisory scenario that always fails.
 */
export const GATE_SUITE_FILES: Record<string, string> = {
  'parley.yaml': `suite: gate_demo
agents:
  lookup:
    kind: openai
    model: gpt-4.1-mini
    system_prompt: prompts/lookup.md
    tools: tools/lookup.json
    temperature: 0
  greeter:
    kind: openai
    model: gpt-4.1-mini
    system_prompt: prompts/greeter.md
    temperature: 0
settings:
  concurrency: 2
  thresholding: { mode: relative, max_drop: 0.05 }
`,
  'prompts/lookup.md': 'You look things up with the lookup tool.\n',
  'prompts/greeter.md': 'You greet customers in Swahili.\n',
  'tools/lookup.json': JSON.stringify([{ name: 'lookup', description: 'Looks a record up', parameters: { type: 'object', properties: {} } }]),
  'scenarios/q_1.yaml': `id: q_1
agent: lookup
user:
  opening: "question one"
tools:
  lookup: { returns: { ok: true } }
expect:
  - metric: tool_correctness
    expected: [{ name: lookup, args: ${JSON.stringify(keys(20))} }]
`,
  'scenarios/q_2.yaml': `id: q_2
agent: lookup
user:
  opening: "question two"
tools:
  lookup: { returns: { ok: true } }
expect:
  - metric: tool_correctness
    expected: [{ name: lookup, args: ${JSON.stringify(keys(50))} }]
`,
  'scenarios/greeting.yaml': `id: greeting
agent: greeter
user:
  opening: "hello there"
expect:
  - { metric: content_signals, required: ["Karibu"] }
`,
  'scenarios/smalltalk.yaml': `id: smalltalk
agent: greeter
gate: advisory
user:
  opening: "tell me something"
expect:
  - { metric: content_signals, required: ["knock knock"] }
`,
};

export const GATE_FAKE_SCRIPT: FakeScript = parseFakeScript({
  rules: [
    { when: { last_user: 'question one', last_message_role: 'user' }, reply: { tool_calls: [{ name: 'lookup', args: keys(20, (index) => (index < 17 ? 1 : 2)) }] } },
    { when: { last_user: 'question two', last_message_role: 'user' }, reply: { tool_calls: [{ name: 'lookup', args: keys(50, (index) => (index < 41 ? 1 : 2)) }] } },
    { when: { last_tool: 'lookup' }, reply: { content: 'Here is what I found.' } },
    { when: { last_user: 'hello there' }, replies: [{ content: 'Karibu!' }, { content: 'Hi.' }, { content: 'Karibu sana!' }] },
    { when: { last_user: 'tell me something' }, reply: { content: 'The weather is fine.' } },
  ],
});

let seed = 5000;

/** Runs `parley` in-process as the CLI would, with a manual clock and a fresh seed per call. */
export async function parleyIn(cwd: string, argv: string[], env: NodeJS.ProcessEnv = {}) {
  const output = captureOutput();
  seed += 1;
  const code = await main(argv, { cwd, env, output, clock: manualClock(), random: seededRandom(seed) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

export function writeSuite(files: Record<string, string>): string {
  const directory = mkdtempSync(join(tmpdir(), 'parley-gate-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(directory, path)), { recursive: true });
    writeFileSync(join(directory, path), content);
  }
  return directory;
}

/** A private copy of a suite folder, recordings included. */
export function copySuite(directory: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'parley-gate-copy-'));
  cpSync(directory, copy, { recursive: true });
  return copy;
}

/**
 * Writes the gate suite and records it against tools/fake-llm through the real OpenAI SDK:
 * `repeat` 3 records every scenario three times into one recording (the greeting's three
 * different answers included). Returns the suite folder; later runs replay offline.
 */
export async function recordedGateSuite(options: { repeat?: number } = {}): Promise<string> {
  const directory = writeSuite(GATE_SUITE_FILES);
  const server = await startFakeLlm({ script: GATE_FAKE_SCRIPT });
  try {
    const repeat = options.repeat && options.repeat > 1 ? ['--repeat', String(options.repeat)] : [];
    const recorded = await parleyIn(directory, ['run', '.', '--mode', 'record', '--out', 'record-run', ...repeat], {
      OPENAI_API_KEY: 'sk-test-GATE-0123456789',
      OPENAI_BASE_URL: server.openaiBaseUrl,
    });
    if (recorded.code === 2) throw new Error(`recording the gate suite failed:\n${recorded.stderr}`);
  } finally {
    await server.close();
  }
  return directory;
}
