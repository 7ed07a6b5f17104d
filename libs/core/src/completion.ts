/**
 * The provider-neutral shape of one LLM call. Every provider (OpenAI, Anthropic, OpenAI-compatible)
 * translates from and to these types, so recording, replay, cost and retries see one shape.
 */

export type ProviderKind = 'openai' | 'openai-responses' | 'anthropic' | 'openai-compatible';

/** Every provider kind, for schemas and checks (the order is the documentation's). */
export const PROVIDER_KINDS: readonly ProviderKind[] = ['openai', 'openai-responses', 'anthropic', 'openai-compatible'];

/**
 * `service`: an agent Parley does not prompt itself (`http`, `command`, `module`). Its replies go
 * through the same provider door so they are recorded, metered and replayed like model calls;
 * the request's `model` is the agent's name.
 */
export type ServiceProviderKind = 'service';

/** Who made the call: recorded with every call and named in replay misses. */
export type CallRole = 'agent' | 'simulator' | 'judge';

export interface ToolCall {
  /** Provider-assigned id (kept so tool results can refer to it). */
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string };

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export interface CompletionRequest {
  provider: ProviderKind | ServiceProviderKind;
  model: string;
  system?: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  temperature?: number;
  max_tokens?: number;
  seed?: number;
  /**
   * The system prompt is a static prefix that is sent again and again (a judge's instructions and
   * rubric): Anthropic gets it as a `cache_control` block so repeats read it from the prompt cache.
   * A wire hint only: it changes neither the answer nor the recording key. OpenAI caches prefixes
   * of 1,024+ tokens by itself, which is why judges put the static part first.
   */
  cache_system?: boolean;
  /** Ask for JSON matching this schema (OpenAI json_schema response format; Anthropic tool use). */
  response_schema?: { name: string; schema: Record<string, unknown> };
}

export interface TokenUsage {
  /** All input tokens of the call, cached ones included. */
  input_tokens: number;
  output_tokens: number;
  /** Of the input tokens, those read from the provider's prompt cache (billed at a discount). */
  cached_input_tokens?: number;
  /** Of the input tokens, those written to Anthropic's prompt cache (billed at a premium). */
  cache_write_input_tokens?: number;
}

export interface CompletionResponse {
  content: string;
  tool_calls: ToolCall[];
  usage: TokenUsage;
  finish_reason: string;
  /** The model the provider says answered. */
  model: string;
  /** Measured (live) or recorded (replay) latency of the call. */
  latency_ms: number;
  /** The state a service agent reported after answering (the `state` of the service wire format, docs/file-formats.md, "Suite"). */
  state?: string;
}

/** Facts about the call that are not part of the request itself. */
export interface CallContext {
  role: CallRole;
  scenario_id: string;
  /** 1-based user turn the call belongs to (0 for calls outside a turn, e.g. judges). */
  turn: number;
}

/** The one door to a model: every layer (retry, recording, replay, cost) wraps this. */
export interface Provider {
  complete(request: CompletionRequest, context: CallContext, signal?: AbortSignal): Promise<CompletionResponse>;
}
