import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot as root, workspacePackages } from '../workspace-packages.js';

const env = { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_TUI: 'false' };

/** The messages of @nx/enforce-module-boundaries for a file with this text at this path (the file is not written). */
async function boundaryErrors(eslint: ESLint, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === '@nx/enforce-module-boundaries').map((message) => message.message);
}

// The rule reads Nx's cached project graph and skips itself when there is none; nx builds it
// fresh first, as `nx run-many -t lint` does. A few seconds, more on a busy machine.
describe('module boundaries in eslint.config.mjs', { timeout: 180_000 }, () => {
  let eslint: ESLint;
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], { cwd: root, env, encoding: 'utf8' });
    eslint = new ESLint({ cwd: root });
  });

  it('gives every project one scope: tag and one type: tag', () => {
    const layers = ['type:util', 'type:domain', 'type:data', 'type:feature', 'type:ui', 'type:app', 'type:tool'];
    for (const { folder, manifest } of workspacePackages()) {
      const tags = manifest.nx?.tags ?? [];
      expect(tags.filter((tag) => tag.startsWith('scope:')), folder).toHaveLength(1);
      const types = tags.filter((tag) => tag.startsWith('type:'));
      expect(types, folder).toHaveLength(1);
      expect(layers, folder).toContain(types[0]);
    }
  });

  it('lets a feature library import a data, domain and util library', async () => {
    const code = "import { openStore } from '@parley/store';\nimport { EXIT_OK } from '@parley/gate';\nimport { sha256Hex } from '@parley/core';\nexport const used = [openStore, EXIT_OK, sha256Hex];\n";
    expect(await boundaryErrors(eslint, 'libs/judge/src/boundary-probe.ts', code)).toEqual([]);
  });

  /** One import that breaks a rule: where it is written, what it imports, and the one error expected. */
  const violations: Array<{ rule: string; file: string; specifier: string; error: string }> = [
    {
      rule: 'a library imports an app by its package name',
      file: 'libs/canary/src/boundary-probe.ts',
      specifier: '@parley/tui',
      error: 'A project tagged with "scope:lib" can only depend on libs tagged with "scope:lib"',
    },
    {
      rule: 'a library imports an app by a relative path',
      file: 'libs/canary/src/boundary-probe.ts',
      specifier: '../../../apps/cli/src/main.js',
      error: 'Projects cannot be imported by a relative or absolute path, and must begin with a npm scope',
    },
    {
      rule: 'a domain library imports a data library',
      file: 'libs/gate/src/boundary-probe.ts',
      specifier: '@parley/store',
      error: 'A project tagged with "type:domain" can only depend on libs tagged with "type:util", "type:domain"',
    },
    {
      rule: 'a data library imports a feature library',
      file: 'libs/store/src/boundary-probe.ts',
      specifier: '@parley/generate',
      error: 'A project tagged with "type:data" can only depend on libs tagged with "type:util", "type:domain", "type:data"',
    },
    {
      rule: 'a library imports terminal presentation (Ink)',
      file: 'libs/reports/src/boundary-probe.ts',
      specifier: 'ink',
      error: 'A project tagged with "scope:lib" is not allowed to import "ink"',
    },
  ];

  it.each(violations)('fails when $rule', async ({ file, specifier, error }) => {
    const code = `import * as imported from '${specifier}';\nexport const used = imported;\n`;
    expect(await boundaryErrors(eslint, file, code)).toEqual([error]);
  });
});
