// Used with `node --import`: records the URL of every ES module Node loads to PARLEY_MODULE_LOG,
// so a test can prove that headless commands never load the provider SDKs, Ink or React.
import { register } from 'node:module';

if (process.env.PARLEY_MODULE_LOG) {
  register('./trace-modules-hooks.mjs', { parentURL: import.meta.url, data: { logFile: process.env.PARLEY_MODULE_LOG } });
}
