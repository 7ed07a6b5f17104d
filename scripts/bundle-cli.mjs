#!/usr/bin/env node
// Bundles the compiled CLI (apps/cli/dist/main.js, from `tsc -b`) and every library it uses into
// minified files under apps/cli/dist/bundle/: the entry `parley.js`, the package's programmatic API
// `index.js` (apps/cli/dist/index.js), and one chunk per shared or dynamically imported part, so a
// command loads only what it uses; the chunks the entry always loads are then folded into it
// (merge-entry-chunks.mjs). Loading a few files instead of ~300 modules halves start-up time,
// which dominates short runs. Native and lazily loaded packages stay external:
// better-sqlite3 (native addon), the provider SDKs (imported on the first live call), ajv
// (required on the first json_schema check) and pg (required by the team store's worker thread
// from the bundle's own location, so it must be installed beside it: a dependency of parley-eval).
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinImports, REQUIRE_BANNER, withoutUnusedRequire } from './builtin-imports.mjs';
import { directImportsPlugin } from './direct-imports.mjs';
import { lazyYamlTransform } from './lazy-yaml.mjs';
import { mergeEntryChunks } from './merge-entry-chunks.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// picomatch is installed twice here: the runner pins its own version, and tinyglobby (the config's
// file globbing) gets the copy hoisted for the build tools. Both are picomatch 4, so the bundle
// takes the runner's for every importer: `parley validate` loaded and evaluated both (~20 kB each).
const runnerPicomatch = createRequire(join(root, 'libs/runner/package.json')).resolve('picomatch');
const onePicomatch = {
  name: 'one-picomatch',
  setup(plugin) {
    plugin.onResolve({ filter: /^picomatch$/ }, () => ({ path: runnerPicomatch }));
    // fdir (tinyglobby's directory walker) looks for an installed picomatch with Node's own
    // `require` when it loads, which read and compiled picomatch's six files from node_modules on
    // every command that reads a suite, beside the bundled copy. It gets the bundled copy instead
    // (a `require` esbuild resolves), the same package.
    plugin.onLoad({ filter: /[\\/]node_modules[\\/]fdir[\\/]dist[\\/]index\.mjs$/ }, (args) => {
      const code = readFileSync(args.path, 'utf8');
      const lookUp = '__require.resolve("picomatch");\n\tpm = __require("picomatch");';
      if (!code.includes(lookUp)) throw new Error(`bundle-cli: fdir's look-up of picomatch changed (${args.path}); see onePicomatch`);
      return { contents: code.replace(lookUp, 'pm = require("picomatch");'), loader: 'js' };
    });
  },
};

// Chunk names carry a content hash: start empty so old chunks do not pile up.
rmSync(new URL('../apps/cli/dist/bundle', import.meta.url), { recursive: true, force: true });

// The output's form, for the build below and for merge-entry-chunks.mjs's build of the entry.
const output = { minify: true, sourcemap: 'linked', platform: 'node', format: 'esm', target: 'node22', logLevel: 'warning' };

await build({
  ...output,
  absWorkingDir: root,
  entryPoints: { parley: 'apps/cli/dist/main.js', index: 'apps/cli/dist/index.js' },
  outdir: 'apps/cli/dist/bundle',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  // react-devtools-core: Ink imports it only when DEV=true, and we do not ship it.
  external: ['better-sqlite3', 'openai', '@anthropic-ai/sdk', 'ajv', 'pg', 'react-devtools-core'],
  // React's production build for the TUI (no development checks at run time).
  define: { 'process.env.NODE_ENV': '"production"' },
  // CommonJS dependencies inside an ES module bundle need a `require`. One line: builtinImports
  // below adds each file's built-in modules to it.
  banner: { js: REQUIRE_BANNER },
  plugins: [directImportsPlugin(root, lazyYamlTransform(root)), onePicomatch],
});

const bundleDir = fileURLToPath(new URL('../apps/cli/dist/bundle', import.meta.url));
const bundleFiles = () => readdirSync(bundleDir, { recursive: true }).filter((name) => name.endsWith('.js'));
// Each file's `require` only where it is used, before the entry's chunks are folded into it: a
// folded chunk's banner would be code of the entry that makes a `require` for nothing.
for (const file of bundleFiles()) {
  const path = join(bundleDir, file);
  const code = readFileSync(path, 'utf8');
  const rewritten = withoutUnusedRequire(code);
  if (rewritten !== code) writeFileSync(path, rewritten);
}

// The chunks the CLI's entry always loads, folded into it: one file for Node to load, not 17
// (scripts/merge-entry-chunks.mjs).
await mergeEntryChunks({ folder: bundleDir, entry: join(bundleDir, 'parley.js'), output });

// Built-in modules taken with process.getBuiltinModule instead of ES imports (scripts/builtin-imports.mjs).
for (const file of bundleFiles()) {
  const path = join(bundleDir, file);
  const code = readFileSync(path, 'utf8');
  const rewritten = await builtinImports(code);
  if (rewritten !== code) writeFileSync(path, rewritten);
}

// For each file it loads, Node looks for the nearest package.json to learn the module type, from
// the file's folder up, several times per file and without remembering a miss: `parley --help`
// tried ~520 paths that do not exist. A package.json in the bundle's folders ends each search at
// once. It holds only the type (no name: the package's own package.json stays the one that names it).
for (const folder of [bundleDir, join(bundleDir, 'chunks')]) writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
