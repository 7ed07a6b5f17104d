import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePromptfoo, PROMPTFOO_VERSION, promptfooEvalCommand, promptfooSuccesses, writePromptfooSuite } from './promptfoo-workload.js';

const folders: string[] = [];
function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-promptfoo-test-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('ensurePromptfoo', () => {
  it('uses an install of the pinned version that is already there, without running npm', async () => {
    const installDir = temporaryFolder();
    const packageDir = join(installDir, 'node_modules', 'promptfoo');
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(join(packageDir, 'package.json'), JSON.stringify({ name: 'promptfoo', version: PROMPTFOO_VERSION, bin: { promptfoo: 'dist/src/entrypoint.js' } }));
    const lines: string[] = [];
    const install = await ensurePromptfoo(installDir, (line) => lines.push(line));
    expect(install).toEqual({ entry: join(packageDir, 'dist', 'src', 'entrypoint.js'), version: PROMPTFOO_VERSION });
    expect(lines).toEqual([]);
  });
});

describe('writePromptfooSuite', () => {
  it('writes one echo test case with a contains assertion per scenario opening', () => {
    const configPath = writePromptfooSuite(temporaryFolder(), 3);
    const text = readFileSync(configPath, 'utf8');
    expect(text).toContain('providers:\n  - echo\n');
    expect(text.match(/- vars: \{ message: "Hi, this is [^"]+\(request \d\)" \}/g)).toHaveLength(3);
    expect(text).toContain('assert: [{ type: contains, value: "(request 3)" }]');
  });
});

describe('promptfooEvalCommand', () => {
  it('runs offline: no cache, no sharing, no telemetry, results to a file', () => {
    const command = promptfooEvalCommand('/pf/entry.js', '/suite/config.yaml', '/home', '/work', '/work/results.json');
    expect(command.argv.slice(1)).toEqual(
      expect.arrayContaining(['/pf/entry.js', 'eval', '-c', '/suite/config.yaml', '--no-cache', '--no-share', '-o', '/work/results.json']),
    );
    expect(command.env).toMatchObject({ PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1', PROMPTFOO_DISABLE_SHARING: '1', PROMPTFOO_CONFIG_DIR: '/home' });
  });
});

describe('promptfooSuccesses', () => {
  it('reads the success count of a results file, and nothing from a missing or foreign one', () => {
    const folder = temporaryFolder();
    const results = join(folder, 'results.json');
    writeFileSync(results, JSON.stringify({ evalId: 'eval-1', results: { stats: { successes: 1000, failures: 0, errors: 0 } } }));
    expect(promptfooSuccesses(results)).toBe(1000);
    expect(promptfooSuccesses(join(folder, 'missing.json'))).toBeUndefined();
    writeFileSync(results, JSON.stringify({ something: 'else' }));
    expect(promptfooSuccesses(results)).toBeUndefined();
  });
});
