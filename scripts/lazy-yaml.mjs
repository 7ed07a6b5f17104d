// An esbuild plugin for the CLI bundle: in the configuration loader's files that import `yaml`
// (LAZY_FILES), the package is evaluated when one of its functions is first called, not when the
// file loads.
//
// Why: every command that reads a suite loads libs/config's parser files, but a valid file is read
// by the subset parser (yaml-subset-parser.ts); the full `yaml` library (its syntax tree, with
// line and column for every node) is needed only for a file with a problem to locate, or one
// outside the subset. Evaluating its ~70 modules cost `parley validate` ~6 ms of CPU every time.
// `yaml` is CommonJS, which esbuild wraps in a function run on first `require`: the import
// becomes such a `require` inside the functions standing for the imported names.
//
// An imported function becomes a function calling it (its own properties, e.g. `visit.BREAK`,
// read through); an imported class a function constructing it (`new LineCounter()` works;
// `instanceof` against it would not, and these files use none). Anything else is refused.
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The compiled files (relative to the repository) whose `yaml` imports are made lazy. */
export const LAZY_FILES = ['libs/config/dist/config-file.js', 'libs/config/dist/yaml-source.js'];

const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*'yaml';$/m;

/** `code` (a compiled ES module) with its named import from 'yaml' replaced by lazy stand-ins. */
export function lazyYamlImports(code, yaml) {
  const match = IMPORT.exec(code);
  if (!match) throw new Error('lazy-yaml: no named import from yaml in a file listed to have one');
  const declarations = ["let yamlModule$;const yaml$=()=>(yamlModule$??=require('yaml'));"];
  for (const part of match[1].split(',').map((item) => item.trim()).filter(Boolean)) {
    const [name, local = name] = part.split(/\s+as\s+/).map((item) => item.trim());
    const value = yaml[name];
    if (typeof value !== 'function') throw new Error(`lazy-yaml: yaml's ${name} is not a function or class`);
    if (/^class\b/.test(Function.prototype.toString.call(value))) {
      declarations.push(`function ${local}(...args){return new (yaml$().${name})(...args);}`);
      continue;
    }
    declarations.push(`const ${local}=(...args)=>yaml$().${name}(...args);`);
    for (const property of Object.keys(value)) {
      declarations.push(`Object.defineProperty(${local},${JSON.stringify(property)},{get:()=>yaml$().${name}[${JSON.stringify(property)}]});`);
    }
  }
  return code.replace(IMPORT, declarations.join(''));
}

/** For directImportsPlugin's transform: the code of a file at `path`, made lazy when it is one of LAZY_FILES. */
export function lazyYamlTransform(root) {
  const yaml = createRequire(join(root, 'libs/config/package.json'))('yaml');
  const files = new Set(LAZY_FILES.map((file) => join(root, file)));
  return (path, code) => (files.has(path) ? lazyYamlImports(code, yaml) : code);
}
