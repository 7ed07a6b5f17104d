/**
 * How Parley reaches a service agent (`http`, `command`, `module`): one JSON body out per user
 * turn, one parsed JSON answer back. Failures are ProviderErrors of kind `agent` whose details
 * carry what the agent printed or answered.
 */
export interface AgentTransport {
  send(body: unknown, signal?: AbortSignal): Promise<unknown>;
  /** Ends the agent's session (a command agent's process); safe to call more than once. */
  close(): Promise<void>;
}

/** The last `limit` characters of what an agent printed: the end is where the error usually is. */
export function tail(text: string, limit = 4000): string {
  return text.length > limit ? `…${text.slice(-limit)}` : text;
}
