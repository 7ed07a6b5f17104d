#!/usr/bin/env node
// Bundles the compiled CLI (apps/cli/dist/main.js, from `tsc -b`) and every library it uses into
// minified files under apps/cli/dist/bundle/: the entry `parley.js`, and one chunk per dynamically
// imported part, so a command loads only what it uses. Loading a few files instead of ~300 modules
// halves start-up time, which dominates short runs. Native and lazily loaded packages stay external:
// better-sqlite3 (native addon), the provider SDKs (imported on the first live call) and ajv
// (required on the first json_schema check).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: ['apps/cli/dist/main.js'],
  outdir: 'apps/cli/dist/bundle',
  entryNames: 'parley',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  minify: true,
  sourcemap: 'linked',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3', 'openai', '@anthropic-ai/sdk', 'ajv'],
  // CommonJS dependencies inside an ES module bundle need a `require`.
  banner: { js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
