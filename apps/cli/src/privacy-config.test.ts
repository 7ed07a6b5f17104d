import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { manualClock, seededRandom } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import { captureOutput } from './test-support/capture-output.js';
import { startFakeLlm } from '@parley/fake-llm';
import { writeSuite, ZURI_FAKE_LLM, ZURI_SUITE } from './test-support/zuri-suite.js';

async function parley(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const output = captureOutput();
  const code = await main(argv, { cwd, env, output, clock: manualClock(), random: seededRandom(7) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

describe('redaction settings of a suite, in-process', () => {
  it('parley validate reads the identities file and reports a line that is not a name with its location', async () => {
    const suite = writeSuite(ZURI_SUITE);
    appendFileSync(join(suite, 'parley.yaml'), 'redaction:\n  identities: data/names.txt\n');
    mkdirSync(join(suite, 'data'));
    writeFileSync(join(suite, 'data/names.txt'), '# customers\nGrace Achieng\n0722 118 904\n');
    const result = await parley(['validate', '.'], suite);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('error: data/names.txt:3:1: "0722 118 904" is not a name: use letters, spaces, hyphens and apostrophes');
  });

  it("masks the identities and the suite's own rules in the reports and events of a run", async () => {
    const suite = writeSuite({
      ...ZURI_SUITE,
      'parley.yaml': `${ZURI_SUITE['parley.yaml']}redaction:\n  identities: names.txt\n  rules:\n    - { name: booking_ref, pattern: "BK-\\\\d+", replacement: "<booking>" }\n`,
      'names.txt': 'Grace Achieng\n',
    });
    const scriptDir = writeSuite({ 'fake-llm.yaml': ZURI_FAKE_LLM });
    const fake = await startFakeLlm({ script: join(scriptDir, 'fake-llm.yaml') });
    try {
      const env = { OPENAI_API_KEY: 'sk-test-CONFIG-0123456789', OPENAI_BASE_URL: fake.openaiBaseUrl };
      const result = await parley(['run', '.', '--mode', 'record', '--out', 'reports'], suite, env);
      expect(result.code, result.stderr).toBe(0);
      const report = readFileSync(join(suite, 'reports', 'report.json'), 'utf8');
      expect(report).not.toMatch(/Grace|Achieng|118 904|BK-1057/);
      expect(report).toContain('Asante <name>! Booked for Thursday 15:00, <booking>. We will text 07** *** 904.');
      expect(readFileSync(join(suite, 'reports', 'events.jsonl'), 'utf8')).not.toMatch(/Grace|Achieng|118 904|BK-1057/);
      expect(result.stdout).not.toMatch(/Grace|Achieng|118 904/);
      // The suite's own cassette keeps what was said: a replay needs it.
      expect(readFileSync(join(suite, 'recordings', 'blowdry_booking.jsonl'), 'utf8')).toContain('Grace Achieng');
    } finally {
      await fake.close();
    }
  });
});
