import { canonicalJson, type Transcript } from '@parley/core';

/**
 * The conversation as the judge reads it: one block per message, numbered by its position in the
 * transcript (the `message_index` the judge answers with), tool calls and tool results included
 * so the judge can check the agent against what its tools returned.
 *
 * Only roles and content go in. Nothing about who produced the conversation does (the agent's
 * name, kind or model, costs, latencies, session ids): a judge that knows the model it grades is
 * biased for or against it (docs/file-formats.md, "Judge metrics").
 *
 * @example
 * [0] user: Habari! Nataka massage Jumamosi.
 * [1] assistant calls check_availability {"day":"saturday"}
 * [2] tool check_availability returned: {"slots":["10:00"]}
 * [3] assistant: Tuna nafasi saa 10:00.
 */
export function renderTranscriptForJudge(transcript: Transcript): string {
  const blocks: string[] = [];
  transcript.turns.forEach((turn, index) => {
    if (turn.role === 'tool') {
      blocks.push(`[${index}] tool ${turn.tool_name ?? 'result'} returned: ${indent(turn.content)}`);
      return;
    }
    const calls = (turn.tool_calls ?? []).map((call) => `${call.name} ${canonicalJson(call.args)}`);
    if (turn.content.trim() !== '') blocks.push(`[${index}] ${turn.role}: ${indent(turn.content)}`);
    if (calls.length > 0) {
      const prefix = turn.content.trim() === '' ? `[${index}] assistant calls` : '    and calls';
      blocks.push(`${prefix} ${calls.join('; ')}`);
    }
    if (turn.content.trim() === '' && calls.length === 0) blocks.push(`[${index}] ${turn.role}: (empty message)`);
  });
  return blocks.join('\n');
}

/** Continuation lines of a multi-line message are indented so they cannot pass for a new message. */
function indent(text: string): string {
  return text.trim().replace(/\r?\n/g, '\n    ');
}
