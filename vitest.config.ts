import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const libs = ['core', 'canary', 'config', 'providers', 'metrics', 'engine', 'store', 'gate', 'reports', 'runner', 'redaction', 'production', 'compare', 'calibration', 'judge', 'telemetry', 'monitor', 'generate', 'html-report'];

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of sibling packages, not their build output.
    alias: [
      ...libs.map((name) => ({ find: `@parley/${name}`, replacement: here(`libs/${name}/src/index.ts`) })),
      { find: '@parley/tui', replacement: here('apps/tui/src/index.ts') },
      { find: '@parley/fake-llm', replacement: here('tools/fake-llm/src/index.ts') },
      { find: '@parley/fake-langfuse', replacement: here('tools/fake-langfuse/src/index.ts') },
    ],
  },
  test: {
    include: ['{apps,libs,tools}/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
