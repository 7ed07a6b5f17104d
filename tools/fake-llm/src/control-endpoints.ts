/**
 * `/_fake/*` and `GET /v1/models`: what a test or a person uses to look at and steer a running
 * fake (the CLI process in particular, which has no other handle).
 */
import { isConfigError } from '@parley/core';
import type { ParsedBody } from './http-json.js';
import { parseFakeScript } from './load-fake-script.js';
import type { LoggedRequest } from './request-log.js';
import type { ScriptedResponder } from './scripted-responder.js';

export type ControlRoute = 'models' | 'requests' | 'reset' | 'script' | 'not-found';

export interface ControlContext {
  responder: ScriptedResponder;
  entries: readonly LoggedRequest[];
  clearLog: () => void;
  method: string;
  url: string;
}

/** The status and JSON body for a control call, after acting on it. */
export function answerControl(route: ControlRoute, body: ParsedBody, context: ControlContext): [status: number, payload: unknown] {
  switch (route) {
    case 'requests':
      return [200, context.entries];
    case 'reset':
      context.clearLog();
      context.responder.resetCounters();
      return [200, { ok: true }];
    case 'models':
      return [200, modelList(context.responder.modelNames())];
    case 'script':
      if (!body.isJson) return [400, { error: { message: 'fake-llm: PUT /_fake/script needs a JSON body' } }];
      try {
        context.responder.replaceScript(parseFakeScript(body.value, 'PUT /_fake/script'));
        return [200, { ok: true }];
      } catch (error) {
        if (!isConfigError(error)) throw error;
        return [400, { error: { message: error.message, issues: error.issues } }];
      }
    case 'not-found':
      return [404, { error: { message: `fake-llm: no endpoint ${context.method} ${context.url}`, type: 'not_found_error' } }];
  }
}

/** One list both SDKs can read: OpenAI's `object`/`owned_by` and Anthropic's `type`/paging fields. */
function modelList(names: string[]) {
  return {
    object: 'list',
    data: names.map((id) => ({
      id,
      object: 'model',
      type: 'model',
      created: 0,
      created_at: '1970-01-01T00:00:00Z',
      owned_by: 'fake-llm',
      display_name: id,
    })),
    has_more: false,
    first_id: names[0] ?? null,
    last_id: names.at(-1) ?? null,
  };
}
