/**
 * Scripted failures, acted out the way real providers and networks fail, so that the retry,
 * timeout and error paths of a client can be tested against the genuine SDKs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { padSequence } from './response-ids.js';
import type { ApiKind, Fault } from './script-schema.js';

export interface FaultContext {
  api: ApiKind;
  request: IncomingMessage;
  response: ServerResponse;
  /** Log number of the request, for the ids in a malformed body. */
  sequence: number;
  /** Sends an error body in the provider's shape. */
  sendError: (status: number, message: string, extraHeaders?: Record<string, string>) => void;
}

/**
 * Acts out the fault and returns the status sent (null for `hang` and `reset`, which send none).
 * - `status`: the status with the provider's error body; `retry_after` seconds become
 *   `Retry-After` (rounded up, as the header takes whole seconds) and `retry-after-ms` (exact,
 *   read first by both SDKs, which lets tests retry after a few milliseconds).
 * - `malformed`: 200 with a JSON body cut off mid-string.
 * - `reset`: the socket is destroyed without a response.
 * - `hang`: nothing is sent; the connection stays open until the client gives up or the server closes.
 */
export function applyFault(fault: Fault, context: FaultContext): number | null {
  switch (fault.kind) {
    case 'status': {
      const status = fault.status ?? 500;
      const retryHeaders: Record<string, string> =
        fault.retry_after === undefined
          ? {}
          : { 'retry-after': String(Math.ceil(fault.retry_after)), 'retry-after-ms': String(Math.round(fault.retry_after * 1000)) };
      context.sendError(status, fault.message ?? `fake-llm: scripted ${status} fault`, retryHeaders);
      return status;
    }
    case 'malformed': {
      // Starts like a real answer, so the client fails while parsing rather than on the status.
      const sequence = padSequence(context.sequence);
      const truncated =
        context.api === 'openai'
          ? `{"id":"chatcmpl-fake-${sequence}","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"`
          : context.api === 'openai-responses'
            ? `{"id":"resp_fake_${sequence}","object":"response","status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"`
            : `{"id":"msg_fake_${sequence}","type":"message","role":"assistant","content":[{"type":"text","text":"`;
      context.response.writeHead(200, { 'content-type': 'application/json' });
      context.response.end(truncated);
      return 200;
    }
    case 'reset':
      context.request.socket.destroy();
      return null;
    case 'hang':
      return null;
  }
}
