import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { captureOutput } from '../test-support/capture-output.js';
import { counted } from './counted.js';

describe('counted', () => {
  it('puts the noun in the number of the count', () => {
    expect([counted(0, 'recording'), counted(1, 'recording'), counted(2, 'recording'), counted(1, 'entry', 'entries'), counted(3, 'entry', 'entries')]).toEqual([
      '0 recordings',
      '1 recording',
      '2 recordings',
      '1 entry',
      '3 entries',
    ]);
  });

  it('says "1 recording" and "1 scenario" of the one conversation parley init writes', async () => {
    const project = mkdtempSync(join(tmpdir(), 'parley-counted-'));
    writeFileSync(join(project, 'package.json'), '{ "name": "one", "version": "1.0.0" }\n');
    const env = { PATH: process.env.PATH };
    expect(await main(['init'], { cwd: project, env, output: captureOutput() })).toBe(0);

    const exported = captureOutput();
    expect(await main(['recordings', 'export', '.', '--out', 'exported'], { cwd: project, env, output: exported })).toBe(0);
    expect(exported.stdout()).toContain('exported 1 recording to exported, masked');

    const run = captureOutput();
    expect(await main(['run', '.', '--reporter', 'github'], { cwd: project, env, output: run })).toBe(0);
    expect(run.stdout()).toMatch(/::group::parley \S+: PASS · 1 scenario \(1 pass\) · exit 0/);
  });
});
