import type { ToolCall, Transcript, TranscriptTurn } from '@parley/core';
import type { MetricInput } from '../metric.js';

type AssistantExtras = Partial<Pick<TranscriptTurn, 'tool_calls' | 'latency_ms' | 'state'>>;

/**
 * Builds transcripts for tests in a line each: every `user` message opens the next turn, and
 * assistant/tool messages belong to the current one.
 *
 * @example conversation().user('hi').assistant('hello', { state: 'greeting' }).build()
 */
export function conversation(): TranscriptBuilder {
  return new TranscriptBuilder();
}

export class TranscriptBuilder {
  private readonly turns: TranscriptTurn[] = [];
  private currentTurn = 0;

  user(content: string): this {
    this.currentTurn += 1;
    this.turns.push({ role: 'user', content, turn: this.currentTurn });
    return this;
  }

  assistant(content: string, extras: AssistantExtras = {}): this {
    this.turns.push({ role: 'assistant', content, turn: Math.max(this.currentTurn, 1), ...extras });
    return this;
  }

  /** An assistant message that only calls tools (empty text), then each tool's answer. */
  calls(...toolCalls: ToolCall[]): this {
    this.assistant('', { tool_calls: toolCalls });
    for (const call of toolCalls) {
      this.turns.push({ role: 'tool', content: '{"ok":true}', turn: Math.max(this.currentTurn, 1), tool_name: call.name });
    }
    return this;
  }

  build(): Transcript {
    return { turns: [...this.turns], ended_by: 'script' };
  }

  /** The transcript wrapped as a metric input. */
  input(): MetricInput {
    return inputOf(this.build());
  }
}

export function toolCall(name: string, args: Record<string, unknown> = {}): ToolCall {
  return { name, args };
}

export function inputOf(transcript: Transcript): MetricInput {
  return { transcript, scenario: { id: 'test_scenario' } };
}
