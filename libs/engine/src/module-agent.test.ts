import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { providerFailure } from './test-support/provider-failure.js';
import { moduleAgent, type ModuleAgentOptions } from './module-agent.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-module-agent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function agent(file: string, source: string, options: Partial<ModuleAgentOptions> = {}) {
  writeFileSync(join(dir, file), source);
  // Replies come back within milliseconds; the long wait only matters on a loaded machine.
  return moduleAgent({ file: join(dir, file), timeoutMs: 30_000, ...options });
}

describe('moduleAgent', () => {
  it('calls respond once per turn in one thread (module state lasts the conversation), a string answer being the reply', async () => {
    const transport = agent('counter.mjs', `let turns = 0; export function respond(body) { turns += 1; return 'turn ' + turns + ': ' + body.message; }`);
    expect(await transport.send({ message: 'Habari' })).toEqual({ reply: 'turn 1: Habari' });
    expect(await transport.send({ message: 'Nataka massage' })).toEqual({ reply: 'turn 2: Nataka massage' });
    await transport.close();
  });

  it('passes a structured answer through, and gives the module its own environment', async () => {
    const transport = agent(
      'structured.mjs',
      `export default async function (body) { return { reply: 'ok ' + process.env.RATIBA_REGION, tool_calls: [{ name: 'book', args: { day: body.message } }], state: 'booked' }; }`,
      { env: { RATIBA_REGION: 'nairobi' } },
    );
    expect(await transport.send({ message: 'sat' })).toEqual({ reply: 'ok nairobi', tool_calls: [{ name: 'book', args: { day: 'sat' } }], state: 'booked' });
    await transport.close();
  });

  it('runs a TypeScript module and an export other than respond', async () => {
    const transport = agent('typed.ts', `interface Turn { message: string }\nexport const answer = (turn: Turn): string => turn.message.toUpperCase();\n`, { exportName: 'answer' });
    expect(await transport.send({ message: 'habari' })).toEqual({ reply: 'HABARI' });
    await transport.close();
    // No compiled copy is left beside the source.
    expect(readdirSync(dir).filter((name) => name.includes('.parley-'))).toEqual([]);
  });

  it('a .ts agent in a CommonJS package (npm init -y writes "type": "commonjs"): one line saying to name it .mts, and the .mts loads', async () => {
    const project = join(dir, 'cjs-project');
    mkdirSync(join(project, 'agents'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "name": "cjs-project", "type": "commonjs" }\n');
    const source = `export async function respond(turn: { message: string }): Promise<string> { return 'hi ' + turn.message; }\n`;
    writeFileSync(join(project, 'agents', 'agent.ts'), source);
    const failing = moduleAgent({ file: join(project, 'agents', 'agent.ts'), timeoutMs: 30_000 });
    const error = await providerFailure(failing.send({ message: 'Habari' }));
    expect(error.message).toBe(
      'cannot load module agent agent.ts: its package.json makes .ts files CommonJS, so export is a syntax error; rename it to agent.mts (always an ES module) and set module: to that name',
    );
    expect(error.message).not.toContain('\n');
    await failing.close();

    writeFileSync(join(project, 'agents', 'agent.mts'), source);
    const renamed = moduleAgent({ file: join(project, 'agents', 'agent.mts'), timeoutMs: 30_000 });
    expect(await renamed.send({ message: 'Habari' })).toEqual({ reply: 'hi Habari' });
    await renamed.close();
  });

  it('makes a throwing respond an agent error with its message and stack', async () => {
    const transport = agent('throws.mjs', `export function respond() { console.log('looking up tenant'); throw new Error('KeyError: tenant'); }`);
    const error = await providerFailure(transport.send({ message: 'Habari' }));
    expect(error.kind).toBe('agent');
    expect(error.message).toBe('module agent throws.mjs threw: KeyError: tenant');
    expect(error.details).toContain('throws.mjs');
    // The agent's own frames, never the worker's URL-encoded source or Node's internals.
    expect(error.details).toMatch(/at respond \(file:\/\/.*throws\.mjs:1:\d+\)/);
    expect(error.details).not.toContain('data:text/javascript');
    expect(error.details).not.toContain('%20');
    expect(error.details).not.toContain('node:internal');
    expect(error.details!.length).toBeLessThan(600);
    await transport.close();
  });

  it('survives process.exit() in the module: only its thread ends, and the turn fails saying so', async () => {
    const transport = agent('exits.mjs', `export function respond() { process.exit(7); }`);
    const error = await providerFailure(transport.send({ message: 'Habari' }));
    expect(error.message).toBe('module agent exits.mjs ended its thread (exit code 7)');
    expect((await providerFailure(transport.send({ message: 'again' }))).message).toBe('module agent exits.mjs ended its thread (exit code 7)');
    await transport.close();
  });

  it('names what is wrong with a module it cannot use', async () => {
    const missing = moduleAgent({ file: join(dir, 'absent.mjs'), timeoutMs: 30_000 });
    expect((await providerFailure(missing.send({ message: 'x' }))).message).toBe(`cannot load module agent ${join(dir, 'absent.mjs')}: file not found`);

    const noFunction = agent('no-function.mjs', `export const greeting = 'hi';`);
    expect((await providerFailure(noFunction.send({ message: 'x' }))).message).toBe(`module agent ${join(dir, 'no-function.mjs')} exports no function "respond" (exports: greeting)`);
    await noFunction.close();

    const broken = agent('broken.mjs', `export function respond( {`);
    expect((await providerFailure(broken.send({ message: 'x' }))).message).toMatch(new RegExp(`^cannot load module agent ${join(dir, 'broken.mjs')}: `));
    await broken.close();
  });

  it('stops a respond that never settles at the timeout', async () => {
    // The promise never settles, so the timeout is reached however busy the machine is.
    const transport = agent('hangs.mjs', `export function respond() { console.log('calling the booking API'); return new Promise(() => {}); }`, { timeoutMs: 300 });
    const error = await providerFailure(transport.send({ message: 'Habari' }));
    expect(error.message).toBe('module agent hangs.mjs did not reply within 300 ms');
    await transport.close();
  });

  it('stops waiting when the run aborts the turn', async () => {
    const transport = agent('aborts.mjs', `export function respond(body, { signal }) { return new Promise((resolve) => signal.addEventListener('abort', () => resolve('aborted'))); }`);
    const controller = new AbortController();
    const sending = transport.send({ message: 'Habari' }, controller.signal);
    controller.abort();
    expect((await providerFailure(sending)).kind).toBe('aborted');
    await transport.close();
  });
});
