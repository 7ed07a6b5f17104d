import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { main } from './main.js';
import { captureOutput } from './test-support/capture-output.js';

const SUITE: Record<string, string> = {
  'parley.yaml': `suite: judged_cli
agents:
  booking: { kind: openai, model: gpt-4.1-mini, system_prompt: prompt.md }
judge:
  primary: { provider: anthropic, model: claude-opus-4-7 }
settings: { retries: { max: 0 } }
`,
  'prompt.md': 'You book massages.\n',
  'metrics/politeness.yaml': 'name: politeness\nversion: 1.0.0\nscale: { min: 1, max: 5 }\nrubric: Is the assistant polite?\napplies_to: conversation\n',
  'scenarios/hello.yaml': `id: hello
agent: booking
language: sw
user: { opening: "Habari, mko wazi Jumamosi?" }
expect:
  - { metric: conversation_judge }
  - { metric: politeness }
`,
};

const VERDICTS = {
  conversation: { content: { message_scores: [{ message_index: 1, score: 90, reason: 'Clear.' }], overall_feedback: 'Good.' }, usage: { input_tokens: 500, output_tokens: 50 } },
  politeness: { content: { score: 5, reason: 'Polite.' }, usage: { input_tokens: 400, output_tokens: 20 } },
  fluency: {
    content: {
      message_scores: [
        {
          message_index: 1,
          score: 5,
          reason: 'Natural.',
          criteria: ['swahili_reply', 'idiomatic_register', 'conventional_loanwords', 'code_switching', 'politeness_register'].map((id) => ({ id, status: 'met', reason: 'ok' })),
        },
      ],
      overall_feedback: 'Natural Swahili.',
    },
  },
};

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        { when: { model: 'gpt-4.1-mini', last_user: 'Jumamosi' }, reply: { content: 'Ndiyo, tuko wazi Jumamosi saa 3 hadi 12.' } },
        { when: { model: 'gpt-4.1-mini', last_user: 'Jumapili' }, reply: { content: 'Hapana, Jumapili tumefunga.' } },
        { when: { model: 'claude-opus-4-7', system: '"conversation_judge"' }, reply: VERDICTS.conversation },
        { when: { model: 'claude-opus-4-7', system: '"politeness"' }, reply: VERDICTS.politeness },
        { when: { model: 'claude-opus-4-7', system: '"fluency_sw"' }, reply: VERDICTS.fluency },
        // Pairwise: a fair judge prefers the reply that answers the question, wherever it is shown.
        { when: { model: 'claude-opus-4-7', last_user: '/Conversation A:\\n\\[0\\] user: Habari, mko wazi Jumamosi\\?\\n\\[1\\] assistant: Ndiyo/' }, reply: { content: { winner: 'A', reason: 'A answers.' } } },
        { when: { model: 'claude-opus-4-7', system: 'compare two conversations' }, reply: { content: { winner: 'B', reason: 'B answers.' } } },
      ],
    },
  });
});
beforeEach(async () => {
  await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
});
afterAll(async () => {
  await server?.close();
});

function writeSuite(files: Record<string, string> = SUITE): string {
  const directory = mkdtempSync(join(tmpdir(), 'parley-judge-cli-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(directory, path)), { recursive: true });
    writeFileSync(join(directory, path), content);
  }
  return directory;
}

let seed = 300;
async function parley(argv: string[], cwd: string) {
  const output = captureOutput();
  const env = { OPENAI_API_KEY: 'sk-test-CLI-0123', ANTHROPIC_API_KEY: 'sk-ant-test-CLI-0123', OPENAI_BASE_URL: server.openaiBaseUrl, ANTHROPIC_BASE_URL: server.anthropicBaseUrl };
  const code = await main(argv, { cwd, env, output, clock: manualClock(), random: seededRandom((seed += 1)) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

const judgeCalls = () => server.requests.filter((request) => request.model === 'claude-opus-4-7').length;

describe('parley run with judges', () => {
  it('says what the judges did, and a second live run takes every verdict from the cache', async () => {
    const suite = writeSuite();
    const first = await parley(['run', '.', '--mode', 'live', '--out', 'a'], suite);
    expect(first.code).toBe(0);
    expect(judgeCalls()).toBe(3);
    expect(first.stdout).toContain('Judge anthropic:claude-opus-4-7 (live): 3 verdicts');

    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const second = await parley(['run', '.', '--mode', 'live', '--out', 'b'], suite);
    expect(second.code).toBe(0);
    expect(judgeCalls()).toBe(0);
    expect(second.stdout).toMatch(/3 verdicts, 3 from the cache \(cost 0, saved \$0\.\d{4}\)/);
    expect(readFileSync(join(suite, 'b', 'junit.xml'), 'utf8')).toContain('<property name="cached_verdicts" value="conversation_judge, politeness, fluency_sw"/>');

    const uncached = await parley(['run', '.', '--mode', 'live', '--no-cache', '--out', 'c'], suite);
    expect(uncached.code).toBe(0);
    expect(judgeCalls()).toBe(3);
  });

  it('parley cache stats and parley cache clear', async () => {
    const suite = writeSuite();
    expect((await parley(['cache', 'stats'], suite)).stdout).toBe('the judge cache is empty (no .parley/parley.db yet)\n');
    await parley(['run', '.', '--mode', 'live', '--out', 'a'], suite);
    await parley(['run', '.', '--mode', 'live', '--out', 'b'], suite);
    const stats = await parley(['cache', 'stats'], suite);
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(/^judge cache \.parley\/parley\.db: 3 verdicts \(judging them cost \$0\.\d{4}\), reused 3 times, saving \$0\.\d{4}/);
    expect(stats.stdout).toMatch(/conversation_judge@1\.0\.0\s+1\s+1/);
    expect(stats.stdout).toMatch(/anthropic:claude-opus-4-7\s+3\s+3/);
    const json = JSON.parse((await parley(['cache', 'stats', '--format', 'json'], suite)).stdout) as { entries: number; by_metric: Array<{ name: string }> };
    expect(json.entries).toBe(3);
    expect(json.by_metric.map((group) => group.name)).toEqual(['conversation_judge@1.0.0', 'fluency_sw@1.0.0', 'politeness@1.0.0']);
    expect(stats.stdout).not.toContain('being judged now');

    // Another process judging a verdict now (its claim in the store): said, and counted in the JSON.
    const { openJudgeCache } = await import('@parley/store');
    const other = openJudgeCache(join(suite, '.parley', 'parley.db'));
    try {
      expect(other.claim('a-verdict-in-flight', 60_000)).toBe('claimed');
      expect((await parley(['cache', 'stats'], suite)).stdout).toContain('\n1 verdict is being judged now by a parley process sharing this store (others wait for it)\n');
      expect(JSON.parse((await parley(['cache', 'stats', '--format', 'json'], suite)).stdout)).toHaveProperty('judging_now', 1);
      other.release('a-verdict-in-flight');
    } finally {
      other.close();
    }

    expect((await parley(['cache', 'clear', '--metric', 'fluency_sw'], suite)).stdout).toBe('removed 1 cached verdict (metric fluency_sw): they are judged afresh on the next live run\n');
    expect((await parley(['cache', 'clear'], suite)).stdout).toMatch(/^removed 2 cached verdicts:/);
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    await parley(['run', '.', '--mode', 'live', '--out', 'c'], suite);
    expect(judgeCalls()).toBe(3);
  });

  it('--cache-clear empties the cache before the run', async () => {
    const suite = writeSuite();
    await parley(['run', '.', '--mode', 'live', '--out', 'a'], suite);
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const cleared = await parley(['run', '.', '--mode', 'live', '--cache-clear', '--out', 'b'], suite);
    expect(cleared.stdout).toContain('cache cleared first');
    expect(judgeCalls()).toBe(3);
  });

  it('--judge live replays the conversation and judges it live; bad judge flags are exit 2', async () => {
    const suite = writeSuite();
    expect((await parley(['run', '.', '--mode', 'record', '--out', 'a'], suite)).code).toBe(0);
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const live = await parley(['run', '.', '--judge', 'live', '--no-cache', '--out', 'b'], suite);
    expect(live.code).toBe(0);
    expect(live.stdout).toContain('(live): 3 verdicts');
    expect(server.requests.filter((request) => request.model === 'gpt-4.1-mini')).toHaveLength(0);
    expect(judgeCalls()).toBe(3);
    expect((await parley(['run', '.', '--judge', 'sometimes'], suite)).code).toBe(2);
    const badSeed = await parley(['run', '.', '--seed', '-1'], suite);
    expect(badSeed.code).toBe(2);
    expect(badSeed.stderr).toContain('--seed must be a whole number ≥ 0, got "-1"');
    const recordReplay = await parley(['run', '.', '--mode', 'record', '--judge', 'replay'], suite);
    expect(recordReplay.code).toBe(2);
    expect(recordReplay.stderr).toContain('--judge replay cannot be used with --mode record');
  });
});

describe('parley validate with rubric metrics', () => {
  it('fails a rubric changed under an unchanged version (exit 2, file:line:column), and passes once the version is bumped', async () => {
    const suite = writeSuite();
    expect((await parley(['validate', '.'], suite)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(suite, 'metrics/.rubric-lock.json'), 'utf8')).metrics.politeness.versions).toHaveProperty(['1.0.0']);
    const file = join(suite, 'metrics/politeness.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Is the assistant polite?', 'Is the assistant polite and warm?'));
    const changed = await parley(['validate', '.'], suite);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('metrics/politeness.yaml:2:10: the rubric of "politeness" changed but its version is still 1.0.0: bump the version');
    writeFileSync(file, readFileSync(file, 'utf8').replace('version: 1.0.0', 'version: 1.1.0'));
    expect((await parley(['validate', '.'], suite)).code).toBe(0);
  });

  it('fails a judge metric in a suite without a judge', async () => {
    const suite = writeSuite({ ...SUITE, 'parley.yaml': SUITE['parley.yaml']!.replace(/judge:\n.*\n/, '') });
    const result = await parley(['validate', '.'], suite);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('conversation_judge is judged by an LLM, and parley.yaml has no judge');
  });
});

describe('parley compare --pairwise', () => {
  it("judges both runs' transcripts in both orders, and a run wins only when both orders agree", async () => {
    const suite = writeSuite();
    expect((await parley(['run', '.', '--mode', 'live', '--out', 'before'], suite)).code).toBe(0);
    const scenario = join(suite, 'scenarios/hello.yaml');
    writeFileSync(scenario, readFileSync(scenario, 'utf8').replace('mko wazi Jumamosi?', 'mko wazi Jumapili?'));
    await parley(['run', '.', '--mode', 'live', '--out', 'after'], suite);
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const compared = await parley(['compare', 'before', 'after', '--pairwise'], suite);
    expect(compared.code).toBe(0);
    expect(compared.stdout).toMatch(/Pairwise \(anthropic:claude-opus-4-7, both orders; a win needs both\): after wins 0, before wins 1, 0 ties of 1 scenarios · 2 judge calls, \$0\.\d{4}/);
    expect(compared.stdout).toContain('hello  before wins  (before first → before, after first → before)');
    expect(judgeCalls()).toBe(2);
    const json = JSON.parse((await parley(['compare', 'before', 'after', '--pairwise', '--format', 'json'], suite)).stdout) as { pairwise: { summary: { before_wins: number } } };
    expect(json.pairwise.summary.before_wins).toBe(1);
  });

  it('calls the judge for no scenario whose transcripts are identical: a tie', async () => {
    const suite = writeSuite();
    expect((await parley(['run', '.', '--mode', 'live', '--out', 'before'], suite)).code).toBe(0);
    expect((await parley(['run', '.', '--mode', 'live', '--out', 'after'], suite)).code).toBe(0);
    await fetch(`${server.url}/_fake/reset`, { method: 'POST' });
    const compared = await parley(['compare', 'before', 'after', '--pairwise'], suite);
    expect(compared.code).toBe(0);
    expect(compared.stdout).toMatch(/after wins 0, before wins 0, 1 ties of 1 scenarios · 0 judge calls/);
    expect(compared.stdout).toContain('hello  tie  (before first → tie, after first → tie): identical transcripts');
    expect(judgeCalls()).toBe(0);
  });
});
