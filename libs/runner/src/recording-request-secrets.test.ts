import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, seededRandom } from '@parley/core';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

/** A credential from the environment (its variable's name says TOKEN) that the suite's author pasted into the prompt, a turn and a tool mock. */
const TOKEN = 'tok-live-5e8b1c7a9d2f4e36';
/** A key by its format (no variable holds it): masked whatever the environment. */
const OPENAI_STYLE = 'sk-proj-ZyXw9876543210VuTsRq';

let server: FakeLlmServer;
let seed = 9100;

beforeAll(async () => {
  server = await startFakeLlm({
    script: {
      rules: [
        { when: { last_message_role: 'user', last_user: '/voucher/' }, reply: { tool_calls: [{ name: 'lookup_voucher', args: { code: 'V-1' } }] } },
        { when: { last_tool: 'lookup_voucher' }, reply: { content: 'Your voucher is valid.' } },
        { when: { last_message_role: 'user' }, reply: { content: 'Noted, thank you.' } },
      ],
    },
  });
});

afterAll(async () => {
  await server?.close();
});

function deps(cwd: string, env: NodeJS.ProcessEnv = {}): RunDependencies {
  return { cwd, env: { OPENAI_API_KEY: 'sk-test-secrets-0123', OPENAI_BASE_URL: server.openaiBaseUrl, ...env }, clock: manualClock(), random: seededRandom((seed += 1)) };
}

const scenario = (secondTurn: string): string => `id: voucher
agent: desk
user:
  opening: "Check my voucher please, my account token is ${TOKEN}."
  script: ["${secondTurn}"]
tools:
  lookup_voucher: { returns: { valid: true, issued_with: "${TOKEN}" } }
expect:
  - { metric: content_signals, required: ["valid"] }
`;

const SUITE: Record<string, string> = {
  'parley.yaml': 'suite: secrets-in-requests\nagents:\n  desk: { kind: openai, model: gpt-4.1-mini, temperature: 0, system_prompt: prompts/desk.md, tools: tools.json }\n',
  'prompts/desk.md': `You answer voucher questions. Internal service token: ${TOKEN}. Never repeat it.\n`,
  'tools.json': JSON.stringify([{ name: 'lookup_voucher', parameters: { type: 'object', properties: { code: { type: 'string' } } } }]),
  'scenarios/voucher.yaml': scenario(`And the admin key ${OPENAI_STYLE}?`),
};

function recordingTexts(dir: string): string[] {
  return readdirSync(join(dir, 'recordings')).map((name) => readFileSync(join(dir, 'recordings', name), 'utf8'));
}

describe('secrets in the requests themselves (prompt, turn, tool mock)', () => {
  it('are masked before the request is keyed, on record and replay: the suite replays and the recording holds no secret', async () => {
    const dir = writeTempSuite(SUITE);
    const env = { SUPPORT_API_TOKEN: TOKEN };
    const recorded = await runSuite({ suitePath: dir, mode: 'record', outDir: 'recorded' }, deps(dir, env));
    expect(recorded.report.results[0]).toMatchObject({ status: 'pass' });
    // The agent really got the secret (the provider needs the real text); the recording did not keep it.
    expect(JSON.stringify(server.requests.map((request) => request.body))).toContain(TOKEN);
    const [recording] = recordingTexts(dir);
    expect(recording).not.toContain(TOKEN);
    expect(recording).not.toContain(OPENAI_STYLE);
    expect(recording).toContain('<secret>');

    const calls = server.requests.length;
    const replayed = await runSuite({ suitePath: dir, mode: 'replay', outDir: 'replayed' }, deps(dir, env));
    expect(replayed.report.results[0]!.error).toBeUndefined();
    expect(replayed.report.results[0]).toMatchObject({ status: 'pass' });
    expect(replayed.exit_code).toBe(0);
    expect(server.requests.length).toBe(calls); // answered from the recording alone
  });

  it('a request that really changed misses with a diff that shows the changed line (not two identical masked lines)', async () => {
    const dir = writeTempSuite(SUITE);
    const env = { SUPPORT_API_TOKEN: TOKEN };
    await runSuite({ suitePath: dir, mode: 'record', outDir: 'recorded' }, deps(dir, env));
    writeFileSync(join(dir, 'scenarios', 'voucher.yaml'), scenario(`And the admin key ${OPENAI_STYLE}, for the second account?`));
    const replayed = await runSuite({ suitePath: dir, mode: 'replay', outDir: 'replayed' }, deps(dir, env));
    expect(replayed.exit_code).toBe(1);
    const error = replayed.report.results[0]!.error!;
    expect(error.kind).toBe('replay_miss');
    const changed = (error.details ?? '').split('\n').filter((line) => /^[-+] /.test(line));
    const removed = changed.filter((line) => line.startsWith('- ')).map((line) => line.slice(2));
    const added = changed.filter((line) => line.startsWith('+ ')).map((line) => line.slice(2));
    expect(added.some((line) => line.includes('for the second account'))).toBe(true);
    expect(removed.some((line) => line.includes('<secret>?'))).toBe(true);
    // Every line shown as removed differs from every line shown as added.
    for (const line of removed) expect(added).not.toContain(line);
    expect(JSON.stringify(replayed.report)).not.toContain(TOKEN);
    expect(JSON.stringify(replayed.report)).not.toContain(OPENAI_STYLE);
  });
});
