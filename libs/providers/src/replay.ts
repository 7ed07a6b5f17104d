import type { CallContext, CompletionRequest, CompletionResponse, Provider } from '@parley/core';
import type { RecordingEntry } from '@parley/config';
import { ProviderError } from './provider-error.js';
import { keyMaterial, requestKey } from './request-key.js';

/**
 * Answers every call from a recording and never touches the network. Calls match by key; repeated
 * identical requests take the recorded answers in order. A miss throws a ProviderError naming the
 * scenario, turn and role, with a short diff against the closest recorded request.
 */
export function createReplayProvider(entries: RecordingEntry[], recordingFile: string, recordCommand?: (scenarioId: string) => string): Provider {
  const queues = new Map<string, RecordingEntry[]>();
  for (const entry of entries) {
    const queue = queues.get(entry.key);
    if (queue) queue.push(entry);
    else queues.set(entry.key, [entry]);
  }
  return {
    async complete(request: CompletionRequest, context: CallContext): Promise<CompletionResponse> {
      const entry = queues.get(requestKey(request))?.shift();
      if (entry) {
        return {
          content: entry.response.content,
          tool_calls: entry.response.tool_calls,
          finish_reason: entry.response.finish_reason,
          model: entry.response.model,
          usage: entry.usage,
          latency_ms: entry.latency_ms,
          ...(entry.response.state !== undefined ? { state: entry.response.state } : {}),
        };
      }
      throw await replayMiss(request, context, entries, recordingFile, recordCommand);
    },
  };
}

async function replayMiss(
  request: CompletionRequest,
  context: CallContext,
  entries: RecordingEntry[],
  recordingFile: string,
  recordCommand: (scenarioId: string) => string = (scenarioId) => `parley run <suite> --mode record --scenario ${scenarioId}`,
): Promise<ProviderError> {
  const where = `scenario ${context.scenario_id}, turn ${context.turn}, role ${context.role}`;
  if (entries.length === 0) {
    return new ProviderError('replay_miss', `recording miss in ${where}: no recording at ${recordingFile}`, {
      context,
      details: `Record it with: ${recordCommand(context.scenario_id)}`,
    });
  }
  const { diffLines } = await import('diff');
  const current = pretty(keyMaterial(request));
  let best: { changes: ReturnType<typeof diffLines>; cost: number } | undefined;
  const candidates = entries.filter((entry) => entry.role === context.role);
  for (const entry of candidates.length ? candidates : entries) {
    const changes = diffLines(pretty(entry.request), current);
    const cost = changes.filter((change) => change.added || change.removed).reduce((sum, change) => sum + (change.count ?? 1), 0);
    if (!best || cost < best.cost) best = { changes, cost };
  }
  const diffText = renderDiff(best?.changes ?? []);
  return new ProviderError(
    'replay_miss',
    `recording miss in ${where}: no recorded call matches this request (${recordingFile} has ${entries.length} call${entries.length === 1 ? '' : 's'})`,
    {
      context,
      details: `Closest recorded request (- recorded, + now):\n${diffText}\nRe-record with: ${recordCommand(context.scenario_id)}`,
    },
  );
}

function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

const MAX_DIFF_LINES = 24;

function renderDiff(changes: Array<{ value: string; added?: boolean; removed?: boolean }>): string {
  const lines: string[] = [];
  for (const change of changes) {
    if (!change.added && !change.removed) continue;
    const sign = change.added ? '+' : '-';
    for (const line of change.value.replace(/\n$/, '').split('\n')) lines.push(`${sign} ${truncate(line.trim(), 160)}`);
  }
  const shown = lines.slice(0, MAX_DIFF_LINES);
  if (lines.length > shown.length) shown.push(`… ${lines.length - shown.length} more changed lines`);
  return shown.join('\n');
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
