#!/usr/bin/env node
// Re-records the example suites: starts tools/fake-llm with each suite's fake-llm.yaml and runs
// `parley run <suite> --mode record` against it through the real OpenAI and Anthropic SDKs.
// Usage: npm run record:examples [-- examples/booking ...]
// A suite's other agents (OTHER_AGENTS) are recorded after its own with `--agent NAME`, into
// `recordings/<scenario>@<NAME>.jsonl`; `examples/booking@booking_v2` records that agent only.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFakeScript, startFakeLlm } from '@parley/fake-llm';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Agents that no scenario names as its own but that comparison runs use (`parley run --agent`). */
const OTHER_AGENTS = { 'examples/booking': ['booking_v2'] };
/**
 * Suites whose recordings are made by `parley generate --from` rather than `parley run`: the
 * arguments of each generate command (the drafts go to a scratch folder, not into the example).
 */
const GENERATE_COMMANDS = {
  'examples/generate': [
    [
      '--count',
      '5',
      '--from',
      'A booking assistant for a chain of unisex hair salons in the Bay Area: it finds salons by city, gives their rating, phone and address, and books appointments. Test a customer who changes the time, one who gives no date, a refund it must refuse, a prompt injection, and a city with no salon.',
    ],
  ],
};
const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['examples/booking', 'examples/municipal', 'examples/generate', 'examples/variants'];
/** One recording pass: the suite, and the agent it runs every scenario against (none: each scenario's own). */
const passes = targets.flatMap((target) => {
  const [suite, agent] = target.split('@');
  if (GENERATE_COMMANDS[suite]) return GENERATE_COMMANDS[suite].map((generate) => ({ suite, generate }));
  if (agent !== undefined) return [{ suite, agent }];
  return [{ suite }, ...(OTHER_AGENTS[suite] ?? []).map((other) => ({ suite, agent: other }))];
});
let failed = false;

for (const { suite, agent, generate } of passes) {
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
      generate !== undefined
        ? [join(root, 'apps/cli/bin/parley.js'), 'generate', '--suite', suite, ...generate, '--mode', 'record', '--out', join('.parley', 'record', suite, 'drafts')]
        : [
            join(root, 'apps/cli/bin/parley.js'),
            'run',
            suite,
            '--mode',
            'record',
            ...(agent !== undefined ? ['--agent', agent] : []),
            '--out',
            join('.parley', 'record', suite, agent ?? ''),
          ],
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
      console.error(`${suite}${agent ? ` (--agent ${agent})` : ''}: ${unmatched.length} calls matched no rule in fake-llm.yaml`);
      failed = true;
    }
    // Exit 1 is the gate's verdict on the agent (booking_v2 fails some scenarios on purpose): the
    // recordings are written all the same. 2 and above mean the run itself failed.
    if (status !== 0 && status !== 1) {
      console.error(`${suite}${agent ? ` (--agent ${agent})` : ''}: parley run --mode record exited ${status}`);
      failed = true;
    }
  } finally {
    await server.close();
  }
}
process.exitCode = failed ? 1 : 0;
