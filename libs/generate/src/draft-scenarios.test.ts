import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock } from '@parley/core';
import { startFakeLlm, type FakeScript } from '@parley/fake-llm';
import { STRUCTURED_ANSWER_TOOL } from '@parley/providers';
import { describe, expect, it } from 'vitest';
import { drafterProvider } from './drafter-provider.js';
import type { DraftBrief } from './draft-request.js';
import { draftScenarios } from './draft-scenarios.js';
import type { ScenarioDraft } from './draft-schema.js';

const MODEL = { provider: 'openai' as const, model: 'gpt-4.1-mini', temperature: 0.7 };
const BRIEF: DraftBrief = { description: 'A salon booking agent: test refunds.', count: 2, agent: { name: 'salon', systemPrompt: 'You book salons.', tools: [] } };
const TARGET = { agent: 'salon', toolNames: [], hasJudge: false };
const draft = (id: string): ScenarioDraft => ({
  id,
  title: `Scenario ${id}`,
  tags: [],
  persona: 'Grace, 55',
  goal: 'a refund',
  opening: 'I want my money back.',
  max_turns: 4,
  criteria: 'Refuses politely.',
  required_phrases: [],
  forbidden_phrases: [],
  expected_tools: [],
});

/** The real OpenAI client against tools/fake-llm answering from `script`, in record mode into a temp recording. */
async function withFakeModel<Result>(script: FakeScript, work: (drafter: ReturnType<typeof drafterProvider>, file: string) => Promise<Result>): Promise<Result> {
  const server = await startFakeLlm({ script, port: 0 });
  const file = join(mkdtempSync(join(tmpdir(), 'parley-drafts-')), 'generate', 'drafts.jsonl');
  try {
    const drafter = drafterProvider({
      mode: 'record',
      recordingFile: file,
      recordCommand: 'parley generate --mode record',
      model: MODEL,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl },
      clock: manualClock(),
    });
    return await work(drafter, file);
  } finally {
    await server.close();
  }
}

describe('draftScenarios', () => {
  it('asks for structured JSON with the simulator settings, and replays the same drafts from what it recorded', async () => {
    const script: FakeScript = { rules: [{ when: { api: 'openai', system: '/You write test scenarios/' }, reply: { content: JSON.stringify({ scenarios: [draft('refund_a'), draft('refund_b')] }) } }] };
    const { recorded, file } = await withFakeModel(script, async (drafter, recordingFile) => {
      const outcome = await draftScenarios({ provider: drafter.provider, model: MODEL, brief: BRIEF, target: TARGET });
      expect(drafter.finish(true)).toEqual({ written: true, calls: 1 });
      return { recorded: outcome, file: recordingFile };
    });
    expect(recorded.accepted.map((item) => item.scenario.id)).toEqual(['refund_a', 'refund_b']);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { role: string; request: { temperature: number; response_schema: { name: string } } };
    expect(entry).toMatchObject({ role: 'simulator', request: { temperature: 0.7, response_schema: { name: 'scenario_drafts' } } });

    const replay = drafterProvider({ mode: 'replay', recordingFile: file, recordCommand: 'x', model: MODEL, env: {}, clock: manualClock() });
    const replayed = await draftScenarios({ provider: replay.provider, model: MODEL, brief: BRIEF, target: TARGET });
    expect(replayed.accepted).toEqual(recorded.accepted);
  });

  it('drafts through the real Anthropic client too: the schema becomes a forced tool whose input is the answer', async () => {
    const server = await startFakeLlm({
      script: { rules: [{ when: { api: 'anthropic' }, reply: { tool_calls: [{ name: STRUCTURED_ANSWER_TOOL, args: { scenarios: [draft('refund_anthropic')] } }] } }] },
      port: 0,
    });
    try {
      const model = { provider: 'anthropic' as const, model: 'claude-sonnet-4-6' };
      const drafter = drafterProvider({
        mode: 'live',
        recordingFile: join(tmpdir(), 'unused.jsonl'),
        recordCommand: 'x',
        model,
        env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.anthropicBaseUrl },
        clock: manualClock(),
      });
      const outcome = await draftScenarios({ provider: drafter.provider, model, brief: { ...BRIEF, count: 1 }, target: TARGET });
      expect(outcome.accepted.map((item) => item.scenario.id)).toEqual(['refund_anthropic']);
    } finally {
      await server.close();
    }
  });

  it('asks once more for an answer that is not JSON, then reports it as unusable', async () => {
    const script: FakeScript = { rules: [{ when: { api: 'openai' }, reply: { content: 'Sure! Here are your scenarios: …' } }] };
    const outcome = await withFakeModel(script, (drafter) => draftScenarios({ provider: drafter.provider, model: MODEL, brief: BRIEF, target: TARGET }));
    expect(outcome.calls).toBe(2);
    expect(outcome.accepted).toEqual([]);
    expect(outcome.rejected).toEqual([{ position: 0, problems: [expect.stringMatching(/^the model's answer was unusable twice: not JSON: /)] }]);
    expect(outcome.missing).toBe(2);
  });

  it('counts the drafts the model left out, and takes no more than asked for', async () => {
    const fewer: FakeScript = { rules: [{ when: { api: 'openai' }, reply: { content: JSON.stringify({ scenarios: [draft('only_one')] }) } }] };
    const short = await withFakeModel(fewer, (drafter) => draftScenarios({ provider: drafter.provider, model: MODEL, brief: BRIEF, target: TARGET }));
    expect(short).toMatchObject({ missing: 1, rejected: [] });
    const more: FakeScript = { rules: [{ when: { api: 'openai' }, reply: { content: JSON.stringify({ scenarios: [draft('a'), draft('b'), draft('c')] }) } }] };
    const long = await withFakeModel(more, (drafter) => draftScenarios({ provider: drafter.provider, model: MODEL, brief: BRIEF, target: TARGET }));
    expect(long.accepted.map((item) => item.scenario.id)).toEqual(['a', 'b']);
  });

  it('repairs a draft with a missing key, sending back what was wrong', async () => {
    const { persona: _persona, ...withoutPersona } = draft('no_persona');
    const script: FakeScript = {
      rules: [
        { name: 'repair', when: { api: 'openai', last_user: '/persona: .*\\n.*Write that one scenario again/s' }, reply: { content: JSON.stringify(draft('with_persona')) } },
        { name: 'batch', when: { api: 'openai' }, reply: { content: JSON.stringify({ scenarios: [withoutPersona] }) } },
      ],
    };
    const outcome = await withFakeModel(script, (drafter) => draftScenarios({ provider: drafter.provider, model: MODEL, brief: { ...BRIEF, count: 1 }, target: TARGET }));
    expect(outcome.accepted).toEqual([expect.objectContaining({ repairs: 1, scenario: expect.objectContaining({ id: 'with_persona' }) })]);
  });
});
