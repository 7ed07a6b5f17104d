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
import { builtinModules } from 'node:module';
import { init, parse } from 'es-module-lexer';

const BUILTINS = new Set(builtinModules);
const isBuiltin = (specifier) => specifier.startsWith('node:') || BUILTINS.has(specifier);

/** `{a as b, c}` (an import clause's braces) as a destructuring pattern: `{a:b,c}`. */
function pattern(braces) {
  const parts = braces.slice(1, -1).split(',').map((part) => part.trim()).filter(Boolean);
  return `{${parts.map((part) => {
    const [name, local = name] = part.split(/\s+as\s+/);
    if (name === 'default') throw new Error(`builtin-imports: a default import by name (${part}) is not handled`);
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
  let result = code;
  for (const entry of imports) {
    // Static imports only (d === -1): `import('node:x')` and import.meta stay as they are.
    if (entry.d !== -1 || entry.n === undefined || !isBuiltin(entry.n)) continue;
    let end = entry.se;
    if (code[end] === ';') end += 1;
    const statement = code.slice(entry.ss, end);
    const match = /^import([\s\S]*?)(?:\bfrom\s*)?["'][^"']+["'];?$/.exec(statement);
    if (!match || !/^import\b/.test(statement)) throw new Error(`builtin-imports: not an import statement: ${statement}`);
    hoisted += declarations(match[1], entry.n);
    result = result.slice(0, entry.ss) + ' '.repeat(statement.length) + result.slice(end);
  }
  if (hoisted === '') return code;
  const firstLineEnd = result.indexOf('\n');
  if (firstLineEnd === -1) throw new Error('builtin-imports: a file of one line: the banner is missing');
  return `${result.slice(0, firstLineEnd)}${hoisted}${result.slice(firstLineEnd)}`;
}
