export { startFakeLlm, type FakeLlmServer } from './server.js';
export { loadFakeScript, parseFakeScript } from './load-fake-script.js';
export type { LoggedRequest } from './request-log.js';
export {
  type FakeScript,
  type Rule,
  type ScriptedReply,
} from './script-schema.js';
