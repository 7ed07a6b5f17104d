import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
