import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeLlm } from '@parley/fake-llm';
import { manualClock, seededRandom } from '@parley/core';
import { runSuite } from './run-suite.js';
import type { RunDependencies } from './run-options.js';
import { writeTempSuite } from './test-support/temp-suite.js';

const TOKEN = 'tok-live-7f3a9c2e5b1d4f60';
const OPENAI_STYLE = 'sk-proj-AbCdEf0123456789GhIjKl';

/** A module agent that leaks: it echoes a token from its environment and an `sk-…` key into its replies. */
const LEAKY_SUITE: Record<string, string> = {
  'parley.yaml': 'suite: leaky\nagents:\n  leaky: { kind: module, module: leaky.mjs }\n',
  'leaky.mjs': `export function respond(body) {
  return body.turn === 1 ? 'Your token is ${TOKEN}, keep it safe.' : 'And the key is ${OPENAI_STYLE} — ' + body.message;
}
`,
  'scenarios/echo.yaml': 'id: echo\nagent: leaky\nuser: { opening: "What is my token?", script: ["And the key?"] }\nexpect:\n  - { metric: content_signals, required: ["keep it safe"] }\n',
};

let seed = 11;
const deps = (cwd: string, env: NodeJS.ProcessEnv): RunDependencies => ({ cwd, env, clock: manualClock(), random: seededRandom((seed += 1)) });

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('secrets an agent echoes', () => {
  it('are masked in recordings and .parley/rerecordings by the secrets redactor, and the recording still replays', async () => {
    const dir = writeTempSuite(LEAKY_SUITE);
    const recorded = await runSuite({ suitePath: dir, mode: 'record', outDir: 'out' }, deps(dir, { MY_SECRET_TOKEN: TOKEN }));
    expect(recorded.report.results[0]!.status).toBe('pass');
    const written = [...filesUnder(join(dir, 'recordings')), ...filesUnder(join(dir, '.parley', 'rerecordings'))];
    expect(written.length).toBeGreaterThanOrEqual(2);
    for (const file of written) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain(TOKEN);
      expect(text, file).not.toContain(OPENAI_STYLE);
      expect(text, file).toContain('<secret>');
    }
    // Replayed offline, without the secret in the environment: the same verdict, no recording miss.
    const replayed = await runSuite({ suitePath: dir, mode: 'replay', outDir: 'replayed' }, deps(dir, {}));
    expect(replayed.report.results[0]).toMatchObject({ status: 'pass' });
    expect(replayed.exit_code).toBe(0);
    expect(JSON.stringify(replayed.report)).not.toContain(TOKEN);
  });
});

describe('a secret a judge quotes', () => {
  it('never reaches the verdict cache in .parley/parley.db: the cached reasons are masked', async () => {
    const fake = await startFakeLlm({
      script: { rules: [], fallback: { content: JSON.stringify({ score: 4, reason: `The agent read out the token ${TOKEN} and the key ${OPENAI_STYLE}.`, criteria: [] }) } },
    });
    try {
      const dir = writeTempSuite({
        ...LEAKY_SUITE,
        'parley.yaml': `${LEAKY_SUITE['parley.yaml']}judge:\n  primary: { provider: openai, model: gpt-4.1 }\n`,
        'metrics/care.yaml': 'name: care\nversion: 1.0.0\nscale: { min: 1, max: 5 }\napplies_to: conversation\nrubric: Score 5 when the agent keeps secrets.\n',
        'scenarios/echo.yaml': `${LEAKY_SUITE['scenarios/echo.yaml']}  - { metric: care, threshold: 0.5 }\n`,
      });
      const env = { MY_SECRET_TOKEN: TOKEN, OPENAI_API_KEY: 'sk-test-judge-cache-0123', OPENAI_BASE_URL: fake.openaiBaseUrl };
      const judged = await runSuite({ suitePath: dir, mode: 'live', outDir: 'out' }, deps(dir, env));
      expect(judged.report.judge).toMatchObject({ verdicts: 1 });
      const stored = filesUnder(join(dir, '.parley'));
      expect(stored.some((file) => file.endsWith('parley.db'))).toBe(true);
      for (const file of stored) {
        const bytes = readFileSync(file).toString('latin1');
        expect(bytes.includes(TOKEN), file).toBe(false);
        expect(bytes.includes(OPENAI_STYLE), file).toBe(false);
      }
      // The cached verdict is still used: a second live run pays the judge nothing.
      const judgeCalls = fake.requests.length;
      const again = await runSuite({ suitePath: dir, mode: 'live', outDir: 'again' }, deps(dir, env));
      expect(again.report.judge).toMatchObject({ verdicts: 1 });
      expect(fake.requests.length).toBe(judgeCalls);
    } finally {
      await fake.close();
    }
  });
});
