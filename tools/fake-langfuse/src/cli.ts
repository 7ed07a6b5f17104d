/**
 * `parley-fake-langfuse --scores FILE [--port N]`: the fake Langfuse as a process, to try
 * `parley promote --langfuse` by hand. FILE holds one score a line ({id, name, dataType, value,
 * timestamp, comment?, traceId?, sessionId?}); the keys are LANGFUSE_PUBLIC_KEY and
 * LANGFUSE_SECRET_KEY of the environment. Prints `fake-langfuse listening on URL`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startFakeLangfuse, type FakeScore } from './fake-langfuse.js';

const USAGE = 'usage: LANGFUSE_PUBLIC_KEY=… LANGFUSE_SECRET_KEY=… parley-fake-langfuse --scores FILE [--port N]';

async function main(): Promise<number | undefined> {
  const { values } = parseArgs({ options: { scores: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
  const publicKey = process.env.LANGFUSE_PUBLIC_KEY;
  const secretKey = process.env.LANGFUSE_SECRET_KEY;
  if (values.help || !values.scores || !publicKey || !secretKey) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const scores = readFileSync(values.scores, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FakeScore);
  const server = await startFakeLangfuse({ publicKey, secretKey, scores, port: Number(values.port ?? 0) });
  process.stdout.write(`fake-langfuse listening on ${server.url}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return undefined;
}

main().then(
  (exitCode) => {
    if (exitCode !== undefined) process.exitCode = exitCode;
  },
  (error: unknown) => {
    process.stderr.write(`parley-fake-langfuse: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
