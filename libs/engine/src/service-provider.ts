import type { CompletionResponse, Provider } from '@parley/core';
import { isProviderError, ProviderError } from '@parley/providers';
import type { AgentTransport } from './agent-transport.js';
import { defaultWireRequest, readWireReply, renderWireRequest, WireFormatError, type ResponseMapping, type WireVariables } from './service-wire.js';

export interface ServiceProviderOptions {
  transport: AgentTransport;
  session: Pick<WireVariables, 'conversation_id' | 'tenant' | 'scenario_id' | 'run_id'>;
  /** The agent's `request:` template (the default wire body of docs/file-formats.md, "Suite", when absent). */
  requestTemplate?: unknown;
  responseMapping?: ResponseMapping;
  now?: () => number;
}

/**
 * A service agent behind the one provider door: the request's messages are the conversation so
 * far (its last message is the user turn to send), the answer is the agent's reply. Because it
 * is a Provider, recording and replay treat a service agent's replies like model answers, and a
 * replay never calls the agent. Session ids are sent to the agent but are not part of the
 * request, so they never change a recording key.
 */
export function serviceProvider(options: ServiceProviderOptions): Provider {
  const now = options.now ?? (() => performance.now());
  return {
    async complete(request, context, signal): Promise<CompletionResponse> {
      const last = request.messages.at(-1);
      if (last?.role !== 'user') throw new ProviderError('agent', 'a service agent is asked with a user message last', { context });
      const history = request.messages
        .slice(0, -1)
        .flatMap((message) => (message.role === 'user' || message.role === 'assistant' ? [{ role: message.role, content: message.content }] : []));
      const variables: WireVariables = { ...options.session, turn: context.turn, message: last.content, history };
      const started = now();
      let answer: unknown;
      try {
        const body = options.requestTemplate === undefined ? defaultWireRequest(variables) : renderWireRequest(options.requestTemplate, variables);
        answer = await options.transport.send(body, signal);
        const reply = readWireReply(answer, options.responseMapping);
        return {
          content: reply.reply,
          tool_calls: reply.tool_calls,
          usage: { input_tokens: 0, output_tokens: 0 },
          finish_reason: 'stop',
          model: request.model,
          latency_ms: Math.round(now() - started),
          ...(reply.state !== undefined ? { state: reply.state } : {}),
        };
      } catch (error) {
        if (isProviderError(error)) throw new ProviderError(error.kind, error.message, withContext(error, context));
        if (error instanceof WireFormatError) {
          const details = answer === undefined ? undefined : JSON.stringify(answer).slice(0, 4000);
          throw new ProviderError('agent', error.message, { context, ...(details !== undefined ? { details: `the agent answered: ${details}` } : {}) });
        }
        throw error;
      }
    },
  };
}

function withContext(error: ProviderError, context: ProviderError['context']) {
  return {
    ...(context ? { context } : {}),
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.details !== undefined ? { details: error.details } : {}),
  };
}
