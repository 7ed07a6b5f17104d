#!/usr/bin/env node
// `npm pack` / `npm publish` of parley-eval (apps/cli) run this first: the workspace build (tsc -b,
// the CLI bundle, the JSON Schemas), then one self-contained declaration file for the package's
// programmatic API (api-extractor inlines the types of the @parley/* libraries, which are bundled
// into the JavaScript and not published on their own).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = fileURLToPath(new URL('../apps/cli/', import.meta.url));
execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
execFileSync(process.execPath, [fileURLToPath(new URL('../node_modules/@microsoft/api-extractor/bin/api-extractor', import.meta.url)), 'run', '--local'], {
  cwd: cli,
  stdio: ['ignore', 'ignore', 'inherit'],
});
