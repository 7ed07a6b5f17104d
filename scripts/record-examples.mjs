#!/usr/bin/env node
// Re-records the example suites: starts tools/fake-llm with each suite's fake-llm.yaml and runs
// `parley run <suite> --mode record` against it through the real OpenAI and Anthropic SDKs.
// Usage: npm run record:examples [-- examples/booking ...]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFakeScript, startFakeLlm } from '@parley/fake-llm';

const root = fileURLToPath(new URL('..', import.meta.url));
const suites = process.argv.slice(2).length ? process.argv.slice(2) : ['examples/booking', 'examples/municipal'];
let failed = false;

for (const suite of suites) {
  const scriptPath = join(root, suite, 'fake-llm.yaml');
  if (!existsSync(scriptPath)) {
    console.error(`${suite}: no fake-llm.yaml`);
    failed = true;
    continue;
  }
  const server = await startFakeLlm({ script: loadFakeScript(scriptPath) });
  try {
    // Asynchronous on purpose: the fake server lives in this process and must keep answering.
    const child = spawn(
      process.execPath,
      [join(root, 'apps/cli/bin/parley.js'), 'run', suite, '--mode', 'record', '--out', join('.parley', 'record', suite)],
      {
        cwd: root,
        stdio: 'inherit',
        env: {
          ...process.env,
          OPENAI_API_KEY: 'sk-fake-llm-local',
          ANTHROPIC_API_KEY: 'sk-ant-fake-llm-local',
          OPENAI_BASE_URL: server.openaiBaseUrl,
          ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
        },
      },
    );
    const status = await new Promise((resolve) => child.on('close', (code) => resolve(code)));
    const unmatched = server.requests.filter((request) => request.api !== 'control' && request.rule === null);
    if (unmatched.length) {
      console.error(`${suite}: ${unmatched.length} calls matched no rule in fake-llm.yaml`);
      failed = true;
    }
    if (status !== 0) {
      console.error(`${suite}: parley run --mode record exited ${status}`);
      failed = true;
    }
  } finally {
    await server.close();
  }
}
process.exitCode = failed ? 1 : 0;
