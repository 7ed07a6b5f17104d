import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { createLiveProvider } from '@parley/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandAgent } from './command-agent.js';
import { runConversation } from './conversation.js';
import { moduleAgent } from './module-agent.js';
import { serviceAgentResponder } from './service-agent-responder.js';
import { serviceProvider } from './service-provider.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-service-conversation-'));
let fake: FakeLlmServer;

beforeAll(async () => {
  // The simulated user (OpenAI's API through the real SDK): one more message, then it ends the conversation.
  fake = await startFakeLlm({
    script: {
      rules: [
        {
          name: 'booked',
          when: { last_user: '/BK-\\d+/' },
          reply: { tool_calls: [{ name: 'end_conversation', args: { reason: 'goal_reached', explanation: 'The massage is booked.' } }] },
        },
        { name: 'asks-time', when: { last_user: 'Ungependa saa ngapi' }, reply: { content: 'Saa nne asubuhi.' } },
      ],
    },
  });
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const session = { conversation_id: 'conv_1', tenant: 'test_tenant_spa_0badf00d', scenario_id: 'spa', run_id: 'run_1' };

/** The booking agent's logic, shared by the command and the module variants: reads the wire body. */
const BOOKING_LOGIC = `
function answer(body) {
  if (body.turn === 1) return { reply: 'Karibu ' + body.tenant + '! Ungependa saa ngapi?', state: 'asking_time' };
  return { reply: 'Nimekuwekea ' + body.message + ' Namba ya booking ni BK-' + (1000 + body.history.length) + '.', tool_calls: [{ name: 'create_booking', args: { time: body.message } }], state: 'booked' };
}`;

const agents = {
  command: () => {
    const file = join(dir, 'booking-agent.mjs');
    writeFileSync(file, `import { createInterface } from 'node:readline';\n${BOOKING_LOGIC}\nfor await (const line of createInterface({ input: process.stdin })) console.log(JSON.stringify(answer(JSON.parse(line))));\n`);
    return commandAgent({ command: [process.execPath, file], cwd: dir, env: { PATH: process.env.PATH }, timeoutMs: 30_000 });
  },
  module: () => {
    const file = join(dir, 'booking-module.mjs');
    writeFileSync(file, `${BOOKING_LOGIC}\nexport const respond = (body) => answer(body);\n`);
    return moduleAgent({ file, timeoutMs: 30_000 });
  },
};

describe('a service agent in a conversation with the simulated user', () => {
  it.each(Object.keys(agents) as Array<keyof typeof agents>)('plays the script and the simulator against a %s agent, keeping tool calls and states', async (kind) => {
    const transport = agents[kind]();
    const provider = serviceProvider({ transport, session });
    const simulator = createLiveProvider({ kind: 'openai' }, { OPENAI_API_KEY: 'sk-test-sim', OPENAI_BASE_URL: fake.openaiBaseUrl });
    try {
      const outcome = await runConversation({
        scenarioId: 'spa',
        scriptedTurns: ['Habari! Nataka massage Jumamosi.'],
        simulation: { settings: { provider: 'openai', model: 'gpt-4.1-mini' }, user: { persona: 'Amina', goal: 'a Saturday massage', language: 'sw' }, maxTurns: 5, provider: simulator },
        responder: serviceAgentResponder({ agentName: 'booking', scenarioId: 'spa', provider }),
      });
      expect(outcome.error).toBeUndefined();
      expect(outcome.transcript.ended_by).toBe('goal_reached');
      expect(outcome.transcript.turns.map((turn) => [turn.turn, turn.role, turn.content, turn.state ?? null])).toEqual([
        [1, 'user', 'Habari! Nataka massage Jumamosi.', null],
        [1, 'assistant', 'Karibu test_tenant_spa_0badf00d! Ungependa saa ngapi?', 'asking_time'],
        [2, 'user', 'Saa nne asubuhi.', null],
        // history: the first user turn and the agent's answer
        [2, 'assistant', 'Nimekuwekea Saa nne asubuhi. Namba ya booking ni BK-1002.', 'booked'],
      ]);
      expect(outcome.transcript.turns[3]!.tool_calls).toEqual([{ name: 'create_booking', args: { time: 'Saa nne asubuhi.' } }]);
    } finally {
      await transport.close();
    }
  });

  it('ends the conversation with an error, keeping the turns so far, when the agent fails mid-way', async () => {
    const file = join(dir, 'dies-on-turn-two.mjs');
    writeFileSync(file, `import { createInterface } from 'node:readline';\nfor await (const line of createInterface({ input: process.stdin })) { if (JSON.parse(line).turn === 2) { console.error('database is locked'); process.exit(1); } console.log(JSON.stringify({ reply: 'Ungependa saa ngapi?' })); }\n`);
    const transport = commandAgent({ command: [process.execPath, file], cwd: dir, env: { PATH: process.env.PATH }, timeoutMs: 30_000 });
    try {
      const outcome = await runConversation({
        scenarioId: 'spa',
        scriptedTurns: ['Habari!', 'Saa nne.'],
        responder: serviceAgentResponder({ agentName: 'booking', scenarioId: 'spa', provider: serviceProvider({ transport, session }) }),
      });
      expect(outcome.transcript.turns.map((turn) => turn.content)).toEqual(['Habari!', 'Ungependa saa ngapi?', 'Saa nne.']);
      expect(outcome.error).toMatchObject({ kind: 'agent', message: expect.stringContaining('exited with code 1 before replying'), details: 'stderr:\ndatabase is locked\nstdout:\n{"reply":"Ungependa saa ngapi?"}' });
      expect(outcome.error).toMatchObject({ context: { role: 'agent', scenario_id: 'spa', turn: 2 } });
    } finally {
      await transport.close();
    }
  });
});
