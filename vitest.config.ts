import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { workspacePackages } from './scripts/workspace-packages.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run against the TypeScript sources of sibling packages, not their build output: each
// `@parley/*` workspace package with a `src/index.ts` resolves to it.
const aliases = workspacePackages()
  .filter(({ folder, manifest }) => manifest.name.startsWith('@parley/') && existsSync(here(`${folder}/src/index.ts`)))
  .map(({ folder, manifest }) => ({ find: manifest.name, replacement: here(`${folder}/src/index.ts`) }));

export default defineConfig({
  resolve: {
    alias: aliases,
  },
  test: {
    include: ['{apps,libs,tools}/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
