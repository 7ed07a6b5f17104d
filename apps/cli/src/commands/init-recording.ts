import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isPromptKind, type ScaffoldAgentKind } from '@parley/config';

/** The model name a scripted reply carries in the recording: it says what made it. */
const PLACEHOLDER_MODEL = 'parley-init-placeholder';

/**
 * What the starter recording holds: for a prompt agent, replies of the scripted responder below
 * (no model was called); for a service agent, the replies of the stub `init` wrote, run for real.
 */
export function starterRecordingNote(kind: ScaffoldAgentKind): string {
  return isPromptKind(kind)
    ? `placeholder replies from parley init's scripted responder (model "${PLACEHOLDER_MODEL}"), not your model`
    : `the replies of the stub in agents/, not your ${kind === 'http' ? 'service' : 'assistant'}`;
}

const PLACEHOLDER_REPLIES = [
  'Hello! This is a placeholder reply recorded by parley init, not your model. Record your agent with: npx parley run --mode record',
  'You are welcome. Goodbye! (placeholder reply recorded by parley init)',
];

/**
 * Records the scaffold's first scenario so `npx parley run` passes offline right after `init`:
 * prompt agents talk to a scripted responder on 127.0.0.1 (OpenAI Chat Completions and Responses,
 * Anthropic Messages), service agents to the stub init wrote (the http stub started on a free port).
 * Reports and run history go to a temporary folder (a local SQLite file even when a team store is
 * configured, so the scratch run never shows in the team's `runs list`); only recordings/ stays.
 */
export async function recordStarterConversation(suiteDir: string, kind: ScaffoldAgentKind): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'parley-init-'));
  const stops: Array<() => Promise<void>> = [];
  try {
    const env: Record<string, string | undefined> = { ...process.env };
    if (isPromptKind(kind)) {
      const responder = await startScriptedResponder();
      stops.push(responder.close);
      Object.assign(env, {
        OPENAI_API_KEY: 'placeholder-recorded-by-parley-init',
        OPENAI_BASE_URL: `${responder.url}/v1`,
        ANTHROPIC_API_KEY: 'placeholder-recorded-by-parley-init',
        ANTHROPIC_BASE_URL: responder.url,
      });
    } else if (kind === 'http') {
      const stub = await startHttpStub(suiteDir);
      stops.push(stub.close);
      env['AGENT_URL'] = stub.url;
    }
    const { runSuite } = await import('../index.js');
    const outcome = await runSuite({ suitePath: suiteDir, cwd: suiteDir, env, mode: 'record', outDir: join(scratch, 'report'), storePath: join(scratch, 'parley.db'), localStore: true });
    if (outcome.exit_code !== 0) throw new Error(`the starter run ended with exit ${outcome.exit_code}: ${outcome.report.results.map((result) => result.reason).join('; ')}`);
  } finally {
    for (const stop of stops) await stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface Started {
  url: string;
  close(): Promise<void>;
}

/** A local server answering every model call with the next scripted reply, in each API's own shape. */
async function startScriptedResponder(): Promise<Started> {
  let calls = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const text = PLACEHOLDER_REPLIES[Math.min(calls, PLACEHOLDER_REPLIES.length - 1)] as string;
      calls++;
      const path = request.url ?? '';
      const body = path.endsWith('/responses')
        ? {
            id: `resp_${calls}`,
            object: 'response',
            created_at: 0,
            model: PLACEHOLDER_MODEL,
            status: 'completed',
            output: [{ type: 'message', id: `msg_${calls}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }],
            usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
          }
        : path.endsWith('/messages')
          ? {
              id: `msg_${calls}`,
              type: 'message',
              role: 'assistant',
              model: PLACEHOLDER_MODEL,
              content: [{ type: 'text', text }],
              stop_reason: 'end_turn',
              stop_sequence: null,
              usage: { input_tokens: 0, output_tokens: 0 },
            }
          : {
              id: `chatcmpl_${calls}`,
              object: 'chat.completion',
              created: 0,
              model: PLACEHOLDER_MODEL,
              choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
            };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The http stub init wrote, started on a free port; resolves with the URL it prints. */
async function startHttpStub(suiteDir: string): Promise<Started> {
  const child = spawn(process.execPath, [join(suiteDir, 'agents', 'http-agent.mjs')], { cwd: suiteDir, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`agents/http-agent.mjs exited with code ${code} before listening`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(/http:\/\/\S+/.exec(line)?.[0] ?? line));
  });
  child.removeAllListeners('exit');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
