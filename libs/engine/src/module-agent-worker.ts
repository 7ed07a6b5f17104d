/**
 * The program of the worker thread a module agent runs in (see `module-agent.ts`), as source text:
 * it is started from a `data:` URL, so it needs no file of its own beside the bundled CLI.
 *
 * Messages in: `{type: 'turn', id, body}` and `{type: 'abort'}`. Messages out: `{type: 'reply',
 * id, answer}`, `{type: 'threw', id, message, stack?}` (respond threw or rejected) and
 * `{type: 'load-failed', id, message}` (the module could not be imported or exports no function).
 */
export const MODULE_AGENT_WORKER_SOURCE = String.raw`
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import * as nodeModule from 'node:module';

// 'parley-eval' (for defineAgent / defineMetric) resolves to the Parley that runs the module when
// the module's own folder has no such package (a suite copied outside its project, a global
// install). Node 22.15+ has in-thread resolve hooks; older Nodes resolve as usual.
if (workerData.parleyEvalUrl && typeof nodeModule.registerHooks === 'function') {
  nodeModule.registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        if (specifier === 'parley-eval' && error && error.code === 'ERR_MODULE_NOT_FOUND') return { url: workerData.parleyEvalUrl, shortCircuit: true };
        throw error;
      }
    },
  });
}

const { file, exportName } = workerData;
const label = workerData.label ?? 'module agent';
let respond;
let controller;

class LoadFailed extends Error {}

async function load() {
  let exports;
  try {
    exports = await import(pathToFileURL(workerData.compiledFile ?? file).href);
  } catch (error) {
    throw new LoadFailed('cannot load ' + label + ' ' + file + ': ' + (error && error.message ? error.message : String(error)));
  }
  const name = exportName ?? 'respond';
  const candidate =
    exports[name] ??
    (exportName === undefined && typeof exports.default === 'function' ? exports.default : undefined) ??
    (exports.default && typeof exports.default === 'object' ? exports.default[name] : undefined);
  if (typeof candidate !== 'function') {
    throw new LoadFailed(label + ' ' + file + ' exports no function "' + name + '" (exports: ' + (Object.keys(exports).join(', ') || 'none') + ')');
  }
  return candidate;
}

parentPort.on('message', async (message) => {
  if (message.type === 'abort') {
    controller?.abort();
    return;
  }
  const { id, body } = message;
  controller = new AbortController();
  try {
    respond ??= await load();
  } catch (error) {
    parentPort.postMessage({ type: 'load-failed', id, message: error.message });
    return;
  }
  let answer;
  try {
    answer = await respond(body, { signal: controller.signal });
  } catch (error) {
    const text = error && error.message !== undefined ? String(error.message) : String(error);
    parentPort.postMessage({ type: 'threw', id, message: text, ...(error && error.stack ? { stack: String(error.stack) } : {}) });
    return;
  }
  try {
    parentPort.postMessage({ type: 'reply', id, answer });
  } catch (error) {
    parentPort.postMessage({ type: 'threw', id, message: 'its answer cannot be passed on (' + error.message + '); answer with text or JSON data' });
  }
});
`;
