// Used with `node --import`: records the URL of every ES module Node loads to PARLEY_MODULE_LOG,
// so a test can prove that headless commands never load the provider SDKs, Ink or React.
// Node's own public modules are added at exit as `node:<name>`, however they were loaded (the
// bundle takes them with process.getBuiltinModule, which the loader hooks do not see), and so are
// the CommonJS modules `require` loaded (native addons, a package looked up at run time).
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const logFile = process.env.PARLEY_MODULE_LOG;
if (logFile) {
  register('./trace-modules-hooks.mjs', { parentURL: import.meta.url, data: { logFile } });
  process.on('exit', () => {
    const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ') && !entry.startsWith('NativeModule internal/'));
    appendFileSync(logFile, builtins.map((entry) => `node:${entry.slice('NativeModule '.length)}\n`).join(''));
    const required = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.startsWith('/') || /^[A-Za-z]:/.test(path));
    appendFileSync(logFile, required.map((path) => `${pathToFileURL(path).href}\n`).join(''));
  });
}
