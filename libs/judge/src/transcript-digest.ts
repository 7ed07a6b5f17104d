import { hashCanonical, type Transcript } from '@parley/core';

/**
 * Hex sha256 of what a judge reads in a transcript: each message's role, text, tool calls (name and
 * arguments) and answering tool. Latencies, token counts, costs and provider call ids are left out:
 * they differ between two runs of the same conversation and never change a verdict, so a live run
 * that produces the same conversation again finds its judge verdicts in the cache
 * (docs/file-formats.md, "Judge metrics", cache).
 */
export function transcriptDigest(transcript: Transcript): string {
  return hashCanonical(
    transcript.turns.map((turn) => ({
      role: turn.role,
      content: turn.content,
      tool_calls: turn.tool_calls?.map((call) => ({ name: call.name, args: call.args })),
      tool_name: turn.tool_name,
    })),
  );
}
