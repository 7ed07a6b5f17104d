// Rewrites the bundle's static imports of Node's built-in modules (`import{readFileSync as a}from
// "node:fs"`) into `process.getBuiltinModule` calls at the top of each file.
//
// Why: an ES import of a built-in makes Node build the module's ES facade, which reads every
// export, and reading fs.promises, process.report or util's lazy getters loads ~30 more of Node's
// internal modules each (streams, workers, readline, …). `parley --version`'s bundle loaded ~85 of
// them it never used, ~15 ms of CPU on every command. `process.getBuiltinModule` (Node 22.3+, and
// the bin refuses Node before 22.12) returns the same object `require` gives, without the facade.
//
// The imported names become `var` declarations on the file's first line (the banner's line), as
// ES imports are bound before the file's code runs, and each import statement is blanked with
// spaces of its own length, so the source maps' lines and columns stay true.
// es-module-lexer finds the statements exactly (never text inside a string or a comment).
//
// A few built-ins Node does not load for itself are loaded on first use instead (LAZY below):
// node:crypto, node:child_process and node:os cost ~1-3 ms of CPU each to load, and `parley --help`
// reached all three only through modules that use them in code it never runs (atomic writes, the
// random source, commander's subcommand spawning). An imported function of one of them becomes a
// function that takes the module when first called; a default or namespace import, an object that
// takes it when a property is first read. Anything else imported from them (a constant, a class)
// is taken at once, as from any other built-in.
import { builtinModules } from 'node:module';
import { init, parse } from 'es-module-lexer';

const BUILTINS = new Set(builtinModules);
const isBuiltin = (specifier) => specifier.startsWith('node:') || BUILTINS.has(specifier);
const LAZY = new Set(['crypto', 'child_process', 'os']);
const isLazy = (specifier) => LAZY.has(specifier.replace(/^node:/, ''));

/** A plain function export (not a class, whose `new` and `instanceof` a wrapper would break). */
function isPlainFunction(specifier, name) {
  const value = process.getBuiltinModule(specifier)[name];
  return typeof value === 'function' && /^[a-z]/.test(name) && !/^class\b/.test(Function.prototype.toString.call(value));
}

/** The name of the file's memo of a lazily loaded module, and the expression that fills it. */
function lazyModule(specifier) {
  const memo = `$parleyBuiltin_${specifier.replace(/^node:/, '').replace(/\W/g, '_')}`;
  return { memo, take: `(${memo}??=process.getBuiltinModule(${JSON.stringify(specifier)}))` };
}

/** Declarations for an import clause of a lazily loaded module, or undefined to take it at once. */
function lazyDeclarations(clause, specifier) {
  const { take } = lazyModule(specifier);
  const trimmed = clause.trim();
  // `import "node:os"` loads the module and binds nothing: nothing to do until something uses it.
  if (trimmed === '') return '';
  const object = (local) => `var ${local}=new Proxy({},{get:(_,key)=>${take}[key],has:(_,key)=>key in ${take}});`;
  const namespace = /^\*\s*as\s+([\w$]+)$/.exec(trimmed) ?? /^([\w$]+)$/.exec(trimmed);
  if (namespace) return object(namespace[1]);
  if (!/^\{[^}]*\}$/.test(trimmed)) return undefined;
  const parts = clauseNames(trimmed);
  if (!parts.every(({ name }) => name !== 'default' && isPlainFunction(specifier, name))) return undefined;
  return parts.map(({ name, local }) => `var ${local}=(...args)=>${take}.${name}(...args);`).join('');
}

/** `{a as b, c}` (an import or export clause's braces) as its names: `[{name: 'a', local: 'b'}, {name: 'c', local: 'c'}]`. */
export function clauseNames(braces) {
  return braces.slice(1, -1).split(',').map((part) => part.trim()).filter(Boolean).map((part) => {
    const [name, local = name] = part.split(/\s+as\s+/);
    return { name, local };
  });
}

/** `{a as b, c}` (an import clause's braces) as a destructuring pattern: `{a:b,c}`. */
function pattern(braces) {
  return `{${clauseNames(braces).map(({ name, local }) => {
    if (name === 'default') throw new Error(`builtin-imports: a default import by name (${name} as ${local}) is not handled`);
    return name === local ? name : `${name}:${local}`;
  }).join(',')}}`;
}

/** The declarations for one import clause (the text between `import` and `from`) of `specifier`. */
function declarations(clause, specifier) {
  const module = `process.getBuiltinModule(${JSON.stringify(specifier)})`;
  const trimmed = clause.trim();
  if (trimmed === '') return `${module};`;
  const namespace = /^\*\s*as\s+([\w$]+)$/.exec(trimmed);
  if (namespace) return `var ${namespace[1]}=${module};`;
  const named = /^\{[^}]*\}$/.exec(trimmed);
  if (named) return `var ${pattern(trimmed)}=${module};`;
  const withDefault = /^([\w$]+)\s*(?:,\s*(\{[^}]*\}|\*\s*as\s+([\w$]+)))?$/.exec(trimmed);
  if (withDefault) {
    const [, local, rest, alias] = withDefault;
    if (rest === undefined) return `var ${local}=${module};`;
    return alias !== undefined ? `var ${local}=${module},${alias}=${local};` : `var ${local}=${module},${pattern(rest)}=${local};`;
  }
  throw new Error(`builtin-imports: an import of ${specifier} this script does not know: import ${clause}`);
}

/**
 * `code` (one ES module of the bundle) with its static imports of built-in modules replaced, the
 * declarations put at the end of its first line. Returns the code unchanged when it has none.
 */
export async function builtinImports(code) {
  await init;
  const [imports] = parse(code);
  let hoisted = '';
  const memos = new Set();
  let result = code;
  for (const entry of imports) {
    // Static imports only (d === -1): `import('node:x')` and import.meta stay as they are.
    if (entry.d !== -1 || entry.n === undefined || !isBuiltin(entry.n)) continue;
    let end = entry.se;
    if (code[end] === ';') end += 1;
    const statement = code.slice(entry.ss, end);
    const match = /^import([\s\S]*?)(?:\bfrom\s*)?["'][^"']+["'];?$/.exec(statement);
    if (!match || !/^import\b/.test(statement)) throw new Error(`builtin-imports: not an import statement: ${statement}`);
    const lazy = isLazy(entry.n) ? lazyDeclarations(match[1], entry.n) : undefined;
    if (lazy !== undefined) {
      const { memo } = lazyModule(entry.n);
      if (!memos.has(memo)) hoisted += `var ${memo};`;
      memos.add(memo);
    }
    hoisted += lazy ?? declarations(match[1], entry.n);
    result = blanked(result, entry.ss, end);
  }
  return hoisted === '' ? code : ontoFirstLine(result, hoisted, 'builtin-imports: a file');
}

/** `code` with its characters from `start` to `end` replaced by spaces: every line and column after them stays where the source map says. */
export function blanked(code, start, end) {
  return code.slice(0, start) + ' '.repeat(end - start) + code.slice(end);
}

/**
 * `code` with `text` added at the end of its first line, the banner's, which maps to no source:
 * statements moved there shift no line or column the source map points at. `what` names the file
 * in the error for a file of one line.
 */
export function ontoFirstLine(code, text, what) {
  const firstLineEnd = code.indexOf('\n');
  if (firstLineEnd === -1) throw new Error(`${what} is one line: the banner is missing`);
  return `${code.slice(0, firstLineEnd)}${text}${code.slice(firstLineEnd)}`;
}

/** The first line of every bundle file (scripts/bundle-cli.mjs): a `require` for the CommonJS packages inside the bundle. */
export const REQUIRE_BANNER = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);";

/**
 * `code` without the banner's `require` when nothing else in the file names `require`: the banner
 * (scripts/bundle-cli.mjs) gives every file one, for the CommonJS packages inside the bundle, but
 * those reach it through esbuild's runtime chunk, so nearly every file made one for nothing
 * (`createRequire` builds a module object: ~0.05 ms per file, 17 files for `parley --help`).
 * A mention of the word in a string keeps the banner, which is only ever the safe side.
 */
export function withoutUnusedRequire(code) {
  if (!code.startsWith(REQUIRE_BANNER)) return code;
  const firstLineEnd = code.indexOf('\n');
  if (/\brequire\b/.test(code.slice(firstLineEnd))) return code;
  return code.slice(REQUIRE_BANNER.length);
}
