// Folds the chunks an entry file of the bundle imports statically into the entry itself.
//
// Why: esbuild's code splitting makes one chunk for each set of entry points (the entry and every
// dynamically imported command) that share modules, so the CLI's entry imported 16 chunks, many
// of a few hundred bytes, and Node's ES module loader pays for each file it loads (resolving it,
// reading it and its compile-cache entry, linking it): `parley --help` took ~11 ms less as one
// file than as 17 (tools/bench/README.md). The entry always loads them all, so folding them in
// loads no code a command did not load before, and every module is still in one file only.
//
// How: esbuild bundles the entry again, this time without splitting, from a small module that
// re-exports the entry and every export of a folded chunk that another file imports (under a
// name of its own, `$m<chunk>_<export>`); dynamic imports stay imports of their own files. The
// other files' imports of a folded chunk become imports of the entry: each statement is blanked
// with spaces of its own length and its replacement put at the end of the file's first line (the
// banner's), so the source maps' lines and columns stay true. esbuild reads the chunks' source
// maps, so the entry's map still names the TypeScript sources.
//
// es-module-lexer finds the statements exactly (never text inside a string or a comment). A form
// this does not handle (a namespace import of a chunk, `export *` from one, a dynamic import of a
// folded chunk) stops the build with an error naming it.
import { build } from 'esbuild';
import { init, parse } from 'es-module-lexer';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { blanked, clauseNames, ontoFirstLine } from './builtin-imports.mjs';

const isRelative = (specifier) => specifier.startsWith('./') || specifier.startsWith('../');
const asSpecifier = (from, to) => {
  const path = relative(dirname(from), to).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
};

/** The relative static and dynamic imports of every `.js` file under `folder`. */
async function readModules(folder) {
  await init;
  const modules = new Map();
  for (const name of readdirSync(folder, { recursive: true }).filter((file) => file.endsWith('.js'))) {
    const path = join(folder, name);
    const code = readFileSync(path, 'utf8');
    const [imports] = parse(code);
    modules.set(path, { code, imports: imports.filter((entry) => entry.n !== undefined && isRelative(entry.n)).map((entry) => ({ ...entry, target: resolve(dirname(path), entry.n) })) });
  }
  return modules;
}

/** The files `entry` imports statically, directly or through another, without the entry itself. */
function staticClosure(modules, entry) {
  const closure = new Set();
  const visit = (path) => {
    for (const { d, target } of modules.get(path)?.imports ?? []) {
      if (d !== -1 || closure.has(target) || target === entry) continue;
      if (!modules.has(target)) throw new Error(`merge-entry-chunks: ${path} imports ${target}, which is not in the bundle`);
      closure.add(target);
      visit(target);
    }
  };
  visit(entry);
  return closure;
}

/**
 * Rewrites `code`'s static imports of the folded files to imports of `entry`, asking `exportName`
 * for each imported name's new one. Returns the code unchanged when it imports none.
 */
function redirectImports(path, { code, imports }, folded, entry, exportName) {
  let result = code;
  let hoisted = '';
  for (const entryImport of imports) {
    if (!folded.has(entryImport.target)) continue;
    const statement = code.slice(entryImport.ss, entryImport.se);
    if (entryImport.d !== -1) throw new Error(`merge-entry-chunks: ${path} imports ${entryImport.n} dynamically, and it is folded into ${entry}`);
    const match = /^(import|export)\s*(\{[^}]*\})?\s*(?:from\s*)?["'][^"']+["']$/.exec(statement);
    if (!match) throw new Error(`merge-entry-chunks: an import of a folded chunk this script does not handle, in ${path}: ${statement}`);
    const [, keyword, braces] = match;
    const specifier = JSON.stringify(asSpecifier(path, entry));
    if (braces === undefined) {
      if (keyword === 'export') throw new Error(`merge-entry-chunks: export * from a folded chunk, in ${path}: ${statement}`);
      hoisted += `import${specifier};`;
    } else {
      const names = clauseNames(braces).map(({ name, local }) => `${exportName(entryImport.target, name)} as ${local}`);
      hoisted += `${keyword}{${names.join(',')}}from${specifier};`;
    }
    result = blanked(result, entryImport.ss, entryImport.se);
  }
  return hoisted === '' ? code : ontoFirstLine(result, hoisted, `merge-entry-chunks: ${path}`);
}

/**
 * Folds into `entry` (a file of the bundle under `folder`) every chunk it imports statically, and
 * points every other file's imports of those chunks at `entry`. `output` holds the first build's
 * esbuild options for the output's form (format `esm`, `sourcemap: 'linked'`, minify, target).
 * Returns the folded files' paths (removed, with their maps).
 */
export async function mergeEntryChunks({ folder, entry, output }) {
  const modules = await readModules(folder);
  const folded = staticClosure(modules, entry);
  if (folded.size === 0) return [];
  const ids = new Map([...folded].map((path, index) => [path, index]));
  const wanted = new Map(); // folded file -> its export names other files import
  const exportName = (target, name) => {
    if (!wanted.has(target)) wanted.set(target, new Set());
    wanted.get(target).add(name);
    return `$m${ids.get(target)}_${name}`;
  };
  const rewritten = new Map();
  for (const [path, module] of modules) {
    if (path === entry || folded.has(path)) continue;
    const code = redirectImports(path, module, folded, entry, exportName);
    if (code !== module.code) rewritten.set(path, code);
  }
  const reexports = [...wanted].map(([target, names]) => `export{${[...names].map((name) => `${name} as $m${ids.get(target)}_${name}`).join(',')}}from${JSON.stringify(target)};`);
  const result = await build({
    stdin: { contents: `export*from${JSON.stringify(entry)};${reexports.join('')}`, resolveDir: folder, sourcefile: 'merged-entry.js', loader: 'js' },
    ...output,
    outfile: entry,
    write: false,
    bundle: true,
    // A first line of no code, as the first build's banner line: builtin-imports.mjs puts its
    // declarations there without moving what the source map points at. (A folded chunk that
    // needed a `require` brought its own, from its banner.)
    banner: { js: ';' },
    plugins: [
      {
        name: 'keep-other-files',
        setup(plugin) {
          // Packages stay external, as in the first build; a dynamic import stays an import of its
          // own file, now named from the entry's folder.
          plugin.onResolve({ filter: /.*/ }, (args) => {
            if (!isRelative(args.path) && !args.path.startsWith('/')) return { path: args.path, external: true };
            if (args.kind !== 'dynamic-import') return undefined;
            const target = resolve(args.resolveDir, args.path);
            if (folded.has(target)) throw new Error(`merge-entry-chunks: ${args.importer} imports ${args.path} dynamically, and it is folded into ${entry}`);
            return { path: asSpecifier(entry, target), external: true };
          });
        },
      },
    ],
  });
  for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
  for (const [path, code] of rewritten) writeFileSync(path, code);
  for (const path of folded) {
    rmSync(path);
    rmSync(`${path}.map`, { force: true });
  }
  return [...folded];
}
