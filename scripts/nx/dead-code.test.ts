import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot as root } from '../workspace-packages.js';

interface KnipIssue {
  file: string;
  exports: Array<{ name: string }>;
  unlisted: Array<{ name: string }>;
}

/** knip.jsonc's settings that apply to every workspace (its "workspaces" entries name this repository's folders). */
function sharedSettings(): Record<string, unknown> {
  const { config, error } = ts.parseConfigFileTextToJson('knip.jsonc', readFileSync(join(root, 'knip.jsonc'), 'utf8'));
  if (error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const { workspaces: _workspaces, $schema: _schema, ...shared } = config as Record<string, unknown>;
  return shared;
}

/** A two-package workspace: `b` imports one of the two values `a` exports, and a package it does not declare. */
function writeWorkspace(dir: string): void {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module', workspaces: ['libs/*'] }),
    'knip.json': JSON.stringify(sharedSettings()),
    'libs/a/package.json': JSON.stringify({ name: '@fixture/a', version: '0.0.0', type: 'module', exports: { '.': './src/index.ts' } }),
    'libs/a/src/index.ts': "export { used, unused } from './values.js';\n",
    'libs/a/src/values.ts': 'export const used = 1;\nexport const unused = 2;\n',
    'libs/b/package.json': JSON.stringify({ name: '@fixture/b', version: '0.0.0', type: 'module', exports: { '.': './src/index.ts' }, dependencies: { '@fixture/a': '0.0.0' } }),
    'libs/b/src/index.ts': "import { used } from '@fixture/a';\nimport { z } from 'zod';\nconsole.log(used, z);\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

// knip runs in `npm run lint` (and so in CI) with knip.jsonc; this checks that its settings catch
// what they are there for, on a workspace small enough to read.
describe('dead code (knip, as configured in knip.jsonc)', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-knip-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on an unused export, a re-export in an index that no package imports, and an undeclared dependency', () => {
    writeWorkspace(dir);
    const knip = spawnSync(process.execPath, [join(root, 'node_modules/knip/bin/knip.js'), '--reporter', 'json', '--no-progress'], { cwd: dir, encoding: 'utf8' });
    expect(knip.status, knip.stderr).toBe(1);
    const { issues } = JSON.parse(knip.stdout) as { issues: KnipIssue[] };
    const found = issues.flatMap((issue) => [
      ...issue.exports.map((entry) => `${issue.file}: unused export ${entry.name}`),
      ...issue.unlisted.map((entry) => `${issue.file}: undeclared ${entry.name}`),
    ]);
    expect(found.toSorted()).toEqual([
      'libs/a/src/index.ts: unused export unused',
      'libs/a/src/values.ts: unused export unused',
      'libs/b/src/index.ts: undeclared zod',
    ]);
  });
});
