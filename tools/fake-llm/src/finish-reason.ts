/**
 * Script authors may write a finish reason in either provider's words; each API gets its own.
 * Unknown values pass through untouched, so a test can still send something unusual on purpose.
 */
import type { ApiKind } from './script-schema.js';

const OPENAI_FROM_ANTHROPIC: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

const ANTHROPIC_FROM_OPENAI: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

/**
 * @example finishReasonFor('openai', 'end_turn', false) // 'stop'
 * @example finishReasonFor('anthropic', undefined, true) // 'tool_use'
 */
export function finishReasonFor(api: ApiKind, scripted: string | undefined, hasToolCalls: boolean): string {
  if (scripted === undefined) {
    if (api === 'openai') return hasToolCalls ? 'tool_calls' : 'stop';
    return hasToolCalls ? 'tool_use' : 'end_turn';
  }
  const table = api === 'openai' ? OPENAI_FROM_ANTHROPIC : ANTHROPIC_FROM_OPENAI;
  return table[scripted] ?? scripted;
}
