export { startFakeLlm, type FakeLlmOptions, type FakeLlmServer } from './server.js';
export type { FakeBatch } from './batch-endpoints.js';
export { loadFakeScript, parseFakeScript } from './load-fake-script.js';
export type { LoggedApi, LoggedRequest } from './request-log.js';
export type { RuleReference } from './scripted-responder.js';
export {
  FakeScriptSchema,
  type ApiKind,
  type FakeScript,
  type Fault,
  type FaultKind,
  type MessageRole,
  type Rule,
  type RuleCondition,
  type ScriptedReply,
  type ScriptedToolCall,
} from './script-schema.js';
