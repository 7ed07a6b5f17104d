import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parleyAsync } from './test-support/parley-process.js';

function writeSuite(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-module-faults-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** Module agents that, run in-process, ended the whole run (exit 13, or their own exit code) with no report. */
const AGENTS: Record<string, string> = {
  'hangs.mjs': 'export function respond() { return new Promise(() => {}); }\n',
  'throws_later.mjs': "export function respond() { setTimeout(() => { throw new Error('late boom'); }, 1); return new Promise(() => {}); }\n",
  'rejects_unhandled.mjs': "export function respond() { Promise.reject(new Error('nobody catches this')); return new Promise(() => {}); }\n",
  'exits.mjs': "export function respond() { console.error('giving up'); process.exit(3); }\n",
  'fine.mjs': "export default (body) => 'ok: ' + body.message;\n",
};

describe('one module agent cannot take the run down', () => {
  it('turns a hang, an uncaught async error, an unhandled rejection and process.exit into error results; the run goes on and writes its report', async () => {
    const names = Object.keys(AGENTS).map((file) => file.replace('.mjs', ''));
    const dir = writeSuite({
      'parley.yaml': `suite: module_faults\nagents:\n${names.map((name) => `  ${name}: { kind: module, module: ${name}.mjs }`).join('\n')}\nsettings: { scenario_timeout_ms: 6000 }\n`,
      ...AGENTS,
      ...Object.fromEntries(names.map((name) => [`scenarios/${name}.yaml`, `id: ${name}\nagent: ${name}\nuser: { opening: "Hi" }\n`])),
    });
    const run = await parleyAsync(['run', '--mode', 'live', '--out', 'out'], { cwd: dir });
    expect(run.status, run.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as { run_id: string; results: { scenario_id: string; status: string; reason?: string }[] };
    expect(Object.fromEntries(report.results.map((result) => [result.scenario_id, [result.status, result.reason]]))).toEqual({
      exits: ['error', 'module agent exits.mjs ended its thread (exit code 3)'],
      fine: ['pass', 'no expectations'],
      hangs: ['error', 'scenario timed out after 6000 ms (settings.scenario_timeout_ms)'],
      rejects_unhandled: ['error', 'module agent rejects_unhandled.mjs crashed with an uncaught error: nobody catches this'],
      throws_later: ['error', 'module agent throws_later.mjs crashed with an uncaught error: late boom'],
    });
    // Every finished result is in the store too.
    const stored = await parleyAsync(['runs', 'show', report.run_id], { cwd: dir });
    expect(stored.status, stored.stderr).toBe(0);
    for (const name of names) expect(stored.stdout).toContain(name);
  }, 60_000);

  it('parley validate names a module agent file that does not exist, at its line (an error under --strict)', async () => {
    const dir = writeSuite({
      'parley.yaml': 'suite: missing_module\nagents:\n  gone: { kind: module, module: agents/gone.mjs }\n',
      'scenarios/a.yaml': 'id: a\nagent: gone\nuser: { opening: "Hi" }\n',
    });
    const lenient = await parleyAsync(['validate'], { cwd: dir });
    expect(lenient.status).toBe(0);
    expect(lenient.stderr).toBe('warning: parley.yaml:3:33: module agent file "agents/gone.mjs" not found (live and record runs of agent "gone" would fail)\n');
    const strict = await parleyAsync(['validate', '--strict'], { cwd: dir });
    expect(strict.status).toBe(2);
    expect(strict.stderr).toBe('error: parley.yaml:3:33: module agent file "agents/gone.mjs" not found (live and record runs of agent "gone" would fail)\n');
  });
});

describe('an agent printing control characters', () => {
  it('shows them escaped in the console: they cannot recolour or garble the terminal', async () => {
    const dir = writeSuite({
      'parley.yaml': 'suite: control_characters\nagents:\n  noisy: { kind: command, command: ["node", "noisy.mjs"], timeout_ms: 20000 }\n',
      'noisy.mjs': "console.error('\\u001b[2J\\u001b[31mfatal\\u0000'); console.log('\\u001b[31mnot json\\u0007');\n",
      'scenarios/noisy.yaml': 'id: noisy\nagent: noisy\nuser: { opening: "Hi" }\n',
    });
    const run = await parleyAsync(['run', '--mode', 'live', '--out', 'out'], { cwd: dir });
    expect(run.status, run.stderr).toBe(1);
    const printed = run.stdout + run.stderr;
    // NO_COLOR: nothing in the output may be a control character but line feeds.
    expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(run.stdout).toContain('printed a line that is not JSON: \\x1b[31mnot json\\x07');
    expect(run.stdout).toContain('\\x1b[2J\\x1b[31mfatal\\x00');
    // The stored result, shown again later, is just as harmless.
    const runId = /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(run.stderr)![1]!;
    const shown = await parleyAsync(['runs', 'show', runId], { cwd: dir });
    expect(shown.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});
