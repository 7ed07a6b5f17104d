// Used with `node --require`: makes `better-sqlite3` resolve to a module that loads a file which is
// not a shared object, so Node's own `process.dlopen` fails with ERR_DLOPEN_FAILED, as it does when
// the real native module was built for another Node.js. Nothing is mocked past that point.
const { registerHooks } = require('node:module');
const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const folder = mkdtempSync(join(tmpdir(), 'parley-broken-native-'));
const notAnAddon = join(folder, 'better_sqlite3.node');
writeFileSync(notAnAddon, 'this is not a shared object\n');
const loader = join(folder, 'better-sqlite3.cjs');
writeFileSync(loader, `process.dlopen(module, ${JSON.stringify(notAnAddon)});\n`);

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'better-sqlite3') return { url: pathToFileURL(loader).href, format: 'commonjs', shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
