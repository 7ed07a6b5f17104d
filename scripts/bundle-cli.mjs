#!/usr/bin/env node
// Bundles the compiled CLI (apps/cli/dist/main.js, from `tsc -b`) and every library it uses into
// minified files under apps/cli/dist/bundle/: the entry `parley.js`, the package's programmatic API
// `index.js` (apps/cli/dist/index.js), and one chunk per shared or dynamically imported part, so a command loads only what it uses. Loading a few files instead of ~300 modules
// halves start-up time, which dominates short runs. Native and lazily loaded packages stay external:
// better-sqlite3 (native addon), the provider SDKs (imported on the first live call), ajv
// (required on the first json_schema check) and pg (required by the team store's worker thread
// from the bundle's own location, so it must be installed beside it: a dependency of parley-eval).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { directImportsPlugin } from './direct-imports.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// Chunk names carry a content hash: start empty so old chunks do not pile up.
rmSync(new URL('../apps/cli/dist/bundle', import.meta.url), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { parley: 'apps/cli/dist/main.js', index: 'apps/cli/dist/index.js' },
  outdir: 'apps/cli/dist/bundle',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  minify: true,
  sourcemap: 'linked',
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // react-devtools-core: Ink imports it only when DEV=true, and we do not ship it.
  external: ['better-sqlite3', 'openai', '@anthropic-ai/sdk', 'ajv', 'pg', 'react-devtools-core'],
  // React's production build for the TUI (no development checks at run time).
  define: { 'process.env.NODE_ENV': '"production"' },
  // CommonJS dependencies inside an ES module bundle need a `require`.
  banner: { js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);" },
  plugins: [directImportsPlugin(root)],
  logLevel: 'warning',
});
