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
    globalSetup: ['./vitest.global-setup.ts'],
    // Bounds for a test that is stuck, not for a slow one: every wait inside a test is on a
    // condition, and on a loaded machine (CI runners, two cores shared by several jobs) a test that
    // starts a few processes can take tens of seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        // Library and tool tests share their workers' module graph (isolate: false): starting a
        // fresh worker per file and evaluating the sibling libraries again took most of their time,
        // and none of them patches globals, the environment or modules.
        extends: true,
        test: { name: 'libs', include: ['{libs,tools}/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'], isolate: false },
      },
      {
        // The CLI and the TUI stay isolated: they render to a process's stdout, set
        // FORCE_COLOR, and load their commands lazily; one file must not see another's state.
        extends: true,
        // They start real CLI and TUI processes (tmux), several per test: a longer bound.
        test: { name: 'apps', include: ['apps/*/src/**/*.test.{ts,tsx}'], testTimeout: 120_000, hookTimeout: 120_000 },
      },
    ],
  },
});
