import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { providerFailure } from './test-support/provider-failure.js';
import { commandAgent, type CommandAgentOptions } from './command-agent.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-command-agent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Node program in the test folder, run with this Node. */
function agent(name: string, source: string, options: Partial<CommandAgentOptions> = {}) {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, source);
  // Replies come back within milliseconds; the long wait only matters on a loaded machine.
  return commandAgent({ command: [process.execPath, file, name], cwd: dir, env: { PATH: process.env.PATH, MARKER_DIR: dir }, timeoutMs: 30_000, ...options });
}

/** Resolves once the condition holds (checked every 20 ms). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** True while a process of that id exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const ECHO = `
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
writeFileSync(process.env.MARKER_DIR + '/started-' + process.argv[2], String(process.pid));
let turns = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const body = JSON.parse(line);
  turns += 1;
  process.stdout.write('\\n'); // a blank line is skipped
  process.stdout.write(JSON.stringify({ reply: 'turn ' + turns + ': ' + body.message, cwd: process.cwd() }) + '\\n');
}
`;

describe('commandAgent', () => {
  it('keeps one process for the conversation, one JSON line each way, and ends it on close', async () => {
    const transport = agent('echo', ECHO);
    const first = await transport.send({ message: 'Habari' });
    const second = await transport.send({ message: 'Nataka massage' });
    expect(first).toEqual({ reply: 'turn 1: Habari', cwd: dir });
    expect(second).toEqual({ reply: 'turn 2: Nataka massage', cwd: dir });
    const pid = Number(readFileSync(join(dir, 'started-echo'), 'utf8'));
    await transport.close();
    expect(alive(pid)).toBe(false);
    await transport.close(); // a second close is harmless
  });

  it('does not start the process before the first turn (a replay never runs the agent)', async () => {
    const transport = agent('lazy', ECHO);
    await transport.close();
    expect(existsSync(join(dir, 'started-lazy'))).toBe(false);
  });

  it('fails the turn on a line that is not JSON, quoting it and what the agent printed', async () => {
    const transport = agent('chatty', `process.stdin.once('data', () => console.log('Hello! I am the booking bot'));`);
    const error = await providerFailure(transport.send({ message: 'Habari' }));
    expect(error.kind).toBe('agent');
    expect(error.message).toContain('printed a line that is not JSON: Hello! I am the booking bot');
    expect(error.details).toContain('stdout:\nHello! I am the booking bot');
    await transport.close();
  });

  it('fails the turn for which the agent printed two JSON lines: the extra line never becomes the next turn\'s reply', async () => {
    const transport = agent(
      'twice',
      `import { createInterface } from 'node:readline';
for await (const line of createInterface({ input: process.stdin })) process.stdout.write(JSON.stringify({ reply: 'one' }) + '\\n' + JSON.stringify({ reply: 'two' }) + '\\n');`,
    );
    const error = await providerFailure(transport.send({ message: 'Habari' }));
    expect(error.kind).toBe('agent');
    expect(error.message).toContain('printed 2 lines for turn 1: the protocol is one JSON line per turn (the extra: {"reply":"two"})');
    await transport.close();
  });

  it('fails the turn when the process exits before replying, with its exit code and stderr', async () => {
    const transport = agent('crash', `process.stdin.once('data', () => { console.error('KeyError: tenant'); process.exit(3); });`);
    const error = await providerFailure(transport.send({ message: 'Habari' }));
    expect(error.kind).toBe('agent');
    expect(error.message).toMatch(/^agent command ".*crash\.mjs crash" exited with code 3 before replying$/);
    expect(error.details).toBe('stderr:\nKeyError: tenant');
    // The process is gone: a later turn fails the same way instead of waiting.
    expect((await providerFailure(transport.send({ message: 'again' }))).message).toContain('exited with code 3 before replying');
    await transport.close();
  });

  it('says when the program cannot be started', async () => {
    const transport = commandAgent({ command: [join(dir, 'no-such-program')], cwd: dir, env: {}, timeoutMs: 30_000 });
    const error = await providerFailure(transport.send({ message: 'Habari' }));
    expect(error.message).toMatch(/could not be started: spawn .*no-such-program ENOENT before replying/);
    await transport.close();
  });

  it('gives up on a silent process after its timeout, and close() kills one that ignores its closed stdin', async () => {
    // The process never answers, so the timeout is reached however busy the machine is.
    const transport = agent('silent', `import { writeFileSync } from 'node:fs'; writeFileSync(process.env.MARKER_DIR + '/silent.pid', String(process.pid)); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`, {
      timeoutMs: 300,
      exitGraceMs: 100,
    });
    const error = await providerFailure(transport.send({ message: 'Habari' }));
    expect(error.message).toMatch(/did not reply within 300 ms$/);
    // On a loaded machine the process may still be starting when the timeout fires.
    const pidFile = join(dir, 'silent.pid');
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await transport.close(); // stdin closed, SIGTERM ignored, then SIGKILL
    expect(alive(pid)).toBe(false);
  });

  it('stops waiting when the run aborts the turn', async () => {
    const transport = agent('slow', `setInterval(() => {}, 1000);`, { exitGraceMs: 100 });
    const controller = new AbortController();
    const sending = transport.send({ message: 'Habari' }, controller.signal);
    controller.abort();
    expect((await providerFailure(sending)).kind).toBe('aborted');
    await transport.close();
  });
});
