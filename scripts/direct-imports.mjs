// An esbuild plugin for the CLI bundle: `import { a, b } from '@parley/x'` in the compiled
// libraries and CLI becomes one import per name from the file of @parley/x that defines it.
//
// Why: with code splitting, esbuild gives a file to every entry that can reach it through imports,
// used or not, and a package's index.js reaches all of the package. So a command importing one
// function through @parley/runner's index shared chunks with everything the run command uses, and
// loaded it: `parley validate` loaded ~870 kB of bundle where ~400 kB is its own. Importing from
// the defining file keeps each command's chunks to what it reaches. (Tree shaking still removes
// unused code inside a file; only which chunks a file lands in changes.)
//
// Only the plain forms tsc emits are rewritten; anything else (a namespace import, a dynamic
// import, a name not found in the index) keeps the index import, which is still correct.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*'(@parley\/[a-z-]+)';$/gm;

/** The names a compiled ES module exports, each with the file that defines it (following re-exports). */
export function exportedNames(file, seen = new Set()) {
  const names = new Map();
  if (seen.has(file) || !existsSync(file)) return names;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const local = (name) => names.set(name, file);
  for (const match of text.matchAll(/^export\s+(?:async\s+)?(?:function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)/gm)) local(match[1]);
  for (const match of text.matchAll(/^export\s*\{([^}]*)\}\s*(?:from\s*'([^']+)')?;/gm)) {
    const from = match[2] === undefined ? undefined : resolve(dirname(file), match[2]);
    const inner = from === undefined ? undefined : exportedNames(from, new Set(seen));
    for (const part of match[1].split(',').map((item) => item.trim()).filter(Boolean)) {
      const [original, alias = original] = part.split(/\s+as\s+/).map((item) => item.trim());
      if (from === undefined) {
        local(alias);
      } else if (original === alias && inner.has(original)) {
        names.set(alias, inner.get(original));
      } else {
        // Renamed on the way out: only the re-exporting file has it under this name.
        names.set(alias, file);
      }
    }
  }
  for (const match of text.matchAll(/^export\s*\*\s*from\s*'([^']+)';/gm)) {
    for (const [name, definedIn] of exportedNames(resolve(dirname(file), match[1]), seen)) if (!names.has(name)) names.set(name, definedIn);
  }
  return names;
}

/** `source` with its named imports from @parley packages pointed at the defining files. */
export function directImports(source, indexOf) {
  return source.replace(IMPORT, (whole, list, specifier) => {
    const index = indexOf(specifier);
    if (index === undefined) return whole;
    const parts = list.split(',').map((item) => item.trim()).filter(Boolean);
    const lines = [];
    for (const part of parts) {
      const [name] = part.split(/\s+as\s+/);
      const file = index.get(name.trim());
      if (file === undefined) return whole;
      lines.push(`import { ${part} } from ${JSON.stringify(file)};`);
    }
    // One line, as before: the compiled file's source map stays true for the lines below.
    return lines.join(' ');
  });
}

/**
 * The plugin: every workspace package's index is read once, from its compiled dist/index.js.
 * `transform` may rewrite a file's code further (esbuild takes the first plugin that loads a file).
 */
export function directImportsPlugin(root, transform = (_path, code) => code) {
  const indexes = new Map();
  const indexOf = (specifier) => {
    if (!indexes.has(specifier)) {
      const file = join(root, 'libs', specifier.slice('@parley/'.length), 'dist', 'index.js');
      indexes.set(specifier, existsSync(file) ? exportedNames(file) : undefined);
    }
    return indexes.get(specifier);
  };
  return {
    name: 'direct-imports',
    setup(build) {
      build.onLoad({ filter: /[\\/](libs|apps)[\\/][^\\/]+[\\/]dist[\\/].*\.js$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        return { contents: transform(args.path, directImports(source, indexOf)), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}
