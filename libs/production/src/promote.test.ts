import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@parley/core';
import { loadSuite, type LoadedSuite } from '@parley/config';
import { promptAgentResponder, runConversation, scriptedUserTurns } from '@parley/engine';
import { createReplayProvider, readRecording } from '@parley/providers';
import { suiteRedactor } from '@parley/redaction';
import { describe, expect, it } from 'vitest';
import { parseJsonLines } from './json-lines.js';
import { LoggedConversationSchema, type LoggedConversation } from './conversation-log.js';
import { readFeedbackFile, type Feedback } from './feedback.js';
import { promoteConversations, type PromoteInput } from './promote.js';
import { promotedScenarioId } from './promoted-scenario.js';
import {
  CONVERSATIONS,
  DENTIST_FEEDBACK,
  DENTIST_VISIT,
  FEEDBACK_LINES,
  GRACE_BOOKING,
  jsonLines,
  NOW,
  PERSONAL_DATA,
  writePromotionSuite,
} from './test-support/production-log.js';

function load(dir: string): LoadedSuite {
  return loadSuite(dir, { metricParams: {} });
}

function inputFor(dir: string, conversations: LoggedConversation[], feedbackLines: unknown[], overrides: Partial<PromoteInput> = {}): PromoteInput {
  writeFileSync(join(dir, 'logs.jsonl'), jsonLines(conversations));
  writeFileSync(join(dir, 'feedback.jsonl'), jsonLines(feedbackLines));
  const suite = load(dir);
  return {
    suite,
    logsFile: 'logs.jsonl',
    conversations: parseJsonLines(jsonLines(conversations), 'logs.jsonl', LoggedConversationSchema, 'conversation log'),
    feedback: readFeedbackFile(join(dir, 'feedback.jsonl')),
    redactor: suiteRedactor(suite),
    now: NOW,
    since: new Date(NOW.getTime() - 7 * 86_400_000),
    ...overrides,
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

describe('promoteConversations', () => {
  it('turns the 👎 conversation into a masked advisory scenario and a recording, and says why the others were skipped', async () => {
    const dir = writePromotionSuite();
    const result = await promoteConversations(inputFor(dir, CONVERSATIONS, FEEDBACK_LINES));

    const id = promotedScenarioId(GRACE_BOOKING.conversation_id);
    expect(result.promoted.map((item) => [item.scenario_id, item.source])).toEqual([[id, 'logs.jsonl:1']]);
    expect(result.skipped.map((item) => [item.source, item.reason])).toEqual([
      ['logs.jsonl:2', 'feedback is not negative (👍 only)'],
      ['logs.jsonl:4', 'ended 2026-10-30, before --since'],
    ]);
    expect(result.without_feedback).toBe(1);
    expect(result.feedback_without_log).toBe(1);
    expect(result.skipped[0]?.conversation).toBe('wa:2547*****789:2026-11-28');

    const yaml = readFileSync(join(dir, 'scenarios/from_production', `${id}.yaml`), 'utf8');
    const recording = readFileSync(join(dir, 'recordings', `${id}.jsonl`), 'utf8');
    for (const text of PERSONAL_DATA) {
      expect(yaml, text).not.toContain(text);
      expect(recording, text).not.toContain(text);
    }
    expect(yaml).toContain('gate: advisory');
    expect(yaml).toContain("It's <name>, 07** *** 904.");
    expect(yaml).toContain('send the receipt to <email>');
    expect(yaml).toMatch(/^# Promoted from production by `parley promote` on 2026-11-30 \(tenant zuri_spa\)\./);

    const promoted = load(dir).scenarios.find((scenario) => scenario.data.id === id)!;
    expect(promoted.gate).toBe('advisory');
    expect(promoted.data.user.opening).toBe('Can you find me a unisex salon in Kilimani?');
    expect(promoted.data.user.script).toEqual([
      "Good. Please book an appointment at the salon.\nIt's <name>, 07** *** 904.",
      'Please book on 3rd of December at 12:00',
      'yes correct. what is the rating and contact number of the salon? send the receipt to <email>',
    ]);
    expect(promoted.data.tools['create_booking']).toEqual({ returns: { booking_id: 'BK-2041', status: 'confirmed', customer: { name: '<name>' } } });
    expect(promoted.data.reference?.feedback).toEqual([{ score: -1, comment: 'It never told me the price! Call me back on 07** *** 904', at: '2026-11-27T09:05:00.000Z' }]);
    expect(promoted.data.reference?.replies.map((reply) => reply.turn)).toEqual([1, 2, 3, 4]);
  });

  it('writes a recording that replays the promoted scenario offline with the real replies, masked', async () => {
    const dir = writePromotionSuite();
    await promoteConversations(inputFor(dir, [GRACE_BOOKING], FEEDBACK_LINES));
    const suite = load(dir);
    const id = promotedScenarioId(GRACE_BOOKING.conversation_id);
    const scenario = suite.scenarios.find((item) => item.data.id === id)!.data;
    const agent = suite.config.agents['booking']!;
    if (agent.kind !== 'openai') throw new Error('fixture agent is an openai agent');
    const entries = readRecording(join(dir, 'recordings', `${id}.jsonl`));
    const outcome = await runConversation({
      scenarioId: id,
      scriptedTurns: scriptedUserTurns(scenario),
      responder: promptAgentResponder({
        scenario,
        agent,
        systemPrompt: suite.agentPrompts['booking']?.text,
        tools: suite.agentTools['booking'] ?? [],
        provider: createReplayProvider(entries, 'recording'),
      }),
    });
    expect(outcome.error).toBeUndefined();
    const assistantTexts = outcome.transcript.turns.filter((turn) => turn.role === 'assistant' && turn.content !== '').map((turn) => turn.content);
    expect(assistantTexts).toEqual(scenario.reference?.replies.map((reply) => reply.content));
    expect(assistantTexts[1]).toBe('Which time suits you, <name>? There is 12:00 or 15:00 on 3 December.');
    const calls = outcome.transcript.turns.flatMap((turn) => turn.tool_calls ?? []);
    expect(calls.map((call) => call.name)).toEqual(['check_availability', 'create_booking']);
    expect(calls[1]?.args).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(entries.map((entry) => entry.latency_ms)).toEqual([2000, 2000, 2000, 2000, 3000, 3000]);
    expect(entries[0]?.usage).toEqual({ input_tokens: 410, output_tokens: 14 });
  });

  it('refuses a restricted vertical without extras before writing anything', async () => {
    const dir = writePromotionSuite();
    const before = filesUnder(dir);
    const input = inputFor(dir, [...CONVERSATIONS, DENTIST_VISIT], [...FEEDBACK_LINES, DENTIST_FEEDBACK]);
    const written = [...before, join(dir, 'logs.jsonl'), join(dir, 'feedback.jsonl')].sort();
    const promotion = promoteConversations(input);
    await expect(promotion).rejects.toThrow(ConfigError);
    await expect(promotion).rejects.toThrow(
      'logs.jsonl:5:1: conversation wa:2547*****222:2026-11-29: "dental" is a restricted vertical without redaction extras: add redaction.extras.dental to parley.yaml; nothing was promoted',
    );
    expect(filesUnder(dir)).toEqual(written);
    expect(existsSync(join(dir, 'scenarios/from_production'))).toBe(false);
  });

  it.each(['Dental', 'DENTAL', ' dental ', 'ｄｅｎｔａｌ'])('refuses the restricted vertical however it is spelled (%j): nothing reaches scenarios/ or recordings/', async (vertical) => {
    const dir = writePromotionSuite();
    const before = filesUnder(dir);
    const input = inputFor(dir, [...CONVERSATIONS, { ...DENTIST_VISIT, vertical }], [...FEEDBACK_LINES, DENTIST_FEEDBACK]);
    await expect(promoteConversations(input)).rejects.toThrow(/is a restricted vertical without redaction extras: add redaction\.extras\.dental to parley\.yaml; nothing was promoted/);
    expect(filesUnder(dir)).toEqual([...before, join(dir, 'logs.jsonl'), join(dir, 'feedback.jsonl')].sort());
    expect(existsSync(join(dir, 'scenarios/from_production'))).toBe(false);
  });

  it('promotes the restricted vertical once its extras exist, masking their terms', async () => {
    const dir = writePromotionSuite('  extras:\n    dental:\n      terms: [teeth, cosmetic services]\n');
    const result = await promoteConversations(inputFor(dir, [DENTIST_VISIT], [DENTIST_FEEDBACK]));
    expect(result.promoted).toHaveLength(1);
    const yaml = readFileSync(result.promoted[0]!.scenario_file, 'utf8');
    expect(yaml).toContain('My <redacted> hurt. Get me a dentist. ID ********.');
    expect(yaml).toContain('vertical: dental');
  });

  it('never overwrites: a second promotion, and a file already in the way, are skipped', async () => {
    const dir = writePromotionSuite();
    const first = await promoteConversations(inputFor(dir, [GRACE_BOOKING], FEEDBACK_LINES));
    const file = first.promoted[0]!.scenario_file;
    writeFileSync(file, `# reviewed by hand\n${readFileSync(file, 'utf8')}`);
    const reviewed = readFileSync(file, 'utf8');

    const second = await promoteConversations(inputFor(dir, [GRACE_BOOKING], FEEDBACK_LINES));
    expect(second.promoted).toEqual([]);
    expect(second.skipped.map((item) => item.reason)).toEqual([`already promoted: scenarios/from_production/${first.promoted[0]!.scenario_id}.yaml exists`]);
    expect(readFileSync(file, 'utf8')).toBe(reviewed);
  });

  it('needs --agent when the suite has several agents, and refuses an unknown one', async () => {
    const dir = writePromotionSuite('', {});
    const input = inputFor(dir, [GRACE_BOOKING], FEEDBACK_LINES);
    await expect(promoteConversations({ ...input, agent: 'bookng' })).rejects.toThrow('--agent bookng: the suite has no such agent; its agents are booking');
    const two = { ...input.suite, config: { ...input.suite.config, agents: { ...input.suite.config.agents, other: input.suite.config.agents['booking']! } } };
    await expect(promoteConversations({ ...input, suite: two })).rejects.toThrow('choose the one the conversations were with, with --agent NAME');
  });

  it('matches feedback given on the Langfuse trace of a conversation', async () => {
    const dir = writePromotionSuite();
    const traced = { ...GRACE_BOOKING, trace_id: 'trace-7f3a' };
    const feedback: Feedback[] = [{ conversation_id: 'session-x', trace_id: 'trace-7f3a', verdict: 'negative', score: -1, source: 'langfuse score s1' }];
    const result = await promoteConversations({ ...inputFor(dir, [traced], []), feedback });
    expect(result.promoted).toHaveLength(1);
  });
});
