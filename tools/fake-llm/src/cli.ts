/**
 * `parley-fake-llm --script FILE [--port N] [--host H] [--log FILE]`: the fake server as a
 * process, for examples and benchmarks that drive Parley (or a peer tool) from outside.
 * Prints one line `fake-llm listening on URL` once it listens; exits 2 on a bad script or flag.
 */
import { parseArgs } from 'node:util';
import { formatIssue, isConfigError } from '@parley/core';
import { startFakeLlm } from './server.js';

const USAGE = 'usage: parley-fake-llm --script FILE [--port N] [--host H] [--log FILE]';

interface CliOptions {
  script: string;
  port: number;
  host: string;
  log?: string;
}

/** The options, or the message to print before exiting with 2. */
function parseCliArguments(argv: string[]): CliOptions | { error: string } | { help: true } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        script: { type: 'string', short: 's' },
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        log: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { error: `${error instanceof Error ? error.message : String(error)}\n${USAGE}` };
  }
  if (values.help) return { help: true };
  if (!values.script) return { error: `--script is required\n${USAGE}` };
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) return { error: `--port must be a port number (0-65535), got ${values.port}` };
  return { script: values.script, port, host: values.host ?? '127.0.0.1', ...(values.log ? { log: values.log } : {}) };
}

async function main(): Promise<number | undefined> {
  const options = parseCliArguments(process.argv.slice(2));
  if ('help' in options) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if ('error' in options) {
    process.stderr.write(`parley-fake-llm: ${options.error}\n`);
    return 2;
  }
  let server;
  try {
    server = await startFakeLlm({ script: options.script, port: options.port, host: options.host, logFile: options.log });
  } catch (error) {
    const message = isConfigError(error) ? error.issues.map(formatIssue).join('\n') : `${options.script}: ${String(error)}`;
    process.stderr.write(`parley-fake-llm: invalid script ${options.script}\n${message}\n`);
    return 2;
  }
  const running = server;
  process.stdout.write(`fake-llm listening on ${running.url}\n`);
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return undefined;
}

main().then(
  (exitCode) => {
    if (exitCode !== undefined) process.exitCode = exitCode;
  },
  (error: unknown) => {
    process.stderr.write(`parley-fake-llm: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
