import { ProviderError } from '@parley/providers';
import { tail, type AgentTransport } from './agent-transport.js';

export interface HttpAgentOptions {
  url: string;
  /** Sent with every request, after Parley's own (values already interpolated). */
  headers: Record<string, string>;
  /** Session headers: `x-parley-conversation-id`, `x-parley-tenant`, `x-parley-scenario-id`, `x-parley-run-id`. */
  session: { conversation_id: string; tenant: string; scenario_id: string; run_id: string };
  timeoutMs: number;
}

/**
 * An agent behind a JSON webhook: one POST per user turn. A non-2xx status or a body that is not
 * JSON fails the scenario with the status and the body the agent sent.
 */
export function httpAgent(options: HttpAgentOptions): AgentTransport {
  return {
    async send(body, signal) {
      const deadline = AbortSignal.timeout(options.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
      let response: Response;
      let text: string;
      try {
        response = await fetch(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-parley-conversation-id': options.session.conversation_id,
            'x-parley-tenant': options.session.tenant,
            'x-parley-scenario-id': options.session.scenario_id,
            'x-parley-run-id': options.session.run_id,
            ...options.headers,
          },
          body: JSON.stringify(body),
          signal: combined,
        });
        text = await response.text();
      } catch (error) {
        if (signal?.aborted) throw new ProviderError('aborted', 'agent call aborted');
        if (deadline.aborted) throw new ProviderError('agent', `agent at ${options.url} did not answer within ${options.timeoutMs} ms`);
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        throw new ProviderError('agent', `cannot reach agent at ${options.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
      }
      if (!response.ok) {
        throw new ProviderError('agent', `agent at ${options.url} answered HTTP ${response.status}`, { status: response.status, details: tail(text) });
      }
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ProviderError('agent', `agent at ${options.url} answered with a body that is not JSON`, { details: tail(text) });
      }
    },
    async close() {},
  };
}
