import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repositoryRoot as root, workspacePackages, type WorkspaceManifest } from '../workspace-packages.js';

const readManifest = (folder: string) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as WorkspaceManifest;
const declared = (manifest: WorkspaceManifest) =>
  new Set([manifest.dependencies, manifest.devDependencies, manifest.peerDependencies, manifest.optionalDependencies].flatMap((deps) => Object.keys(deps ?? {})));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The package names a file imports (static and dynamic imports, re-exports, requires), read by TypeScript's own pre-processor. */
function importedPackages(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((file) => file.fileName)
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('node:'))
    .map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'))
    .filter((name) => !builtinModules.includes(name));
}

const testServers = ['@parley/fake-llm', '@parley/fake-langfuse'];

describe('declared dependencies', () => {
  it('finds bare specifiers in every form of import', () => {
    const text = "// an example: import x from 'not-an-import';\nconst prose = `from 'not-an-import'`;\nimport a from 'zod';\nimport type { B } from '@scope/pkg/sub';\nexport * from './local.js';\nimport 'side-effect';\nconst c = await import('lazy');\nimport { d } from 'node:fs';\nimport { e } from 'fs';\n";
    expect(importedPackages(text)).toEqual(['zod', '@scope/pkg', 'side-effect', 'lazy']);
  });

  // A package's own package.json must list what its source imports, so that it installs and
  // builds on its own. Tests may also use the root's development tools (vitest, fast-check) and
  // the local fake servers (tools/fake-llm, tools/fake-langfuse), as eslint.config.mjs allows.
  it.each(workspacePackages().map(({ folder, manifest }) => ({ folder, manifest })))('$folder declares every package its source imports', ({ folder, manifest }) => {
    const own = declared(manifest);
    const rootTools = declared(readManifest(root));
    const missing = sourceFiles(join(root, folder, 'src')).flatMap((file) => {
      const isTest = /\.test\.tsx?$/.test(file) || file.includes('/test-support/');
      return importedPackages(readFileSync(file, 'utf8'))
        .filter((name) => name !== manifest.name && !own.has(name) && !(isTest && (rootTools.has(name) || testServers.includes(name))))
        .map((name) => `${relative(root, file)}: ${name}`);
    });
    expect(missing).toEqual([]);
  });
});
