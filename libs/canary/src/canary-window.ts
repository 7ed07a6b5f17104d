import { ConfigError } from '@parley/core';
import type { ConversationScore } from './canary-comparison.js';

/** A logged conversation as `parley canary compare` needs it: its id, its prompt version, and when it ended (undefined: no turn timestamp). */
export interface CanaryLogRow {
  conversation_id: string;
  prompt_version?: string | undefined;
  ended?: Date | undefined;
}

/** The conversations of the window that the comparison splits by version, and what was left out. */
export interface CanaryWindow {
  conversations: Array<{ conversation_id: string; prompt_version: string }>;
  /** Logged conversations without a prompt_version. */
  withoutVersion: number;
  /** Conversations that ended before `since`, or have no timestamp to tell. */
  outsideWindow: number;
}

/**
 * Keeps the logged conversations with a prompt version that ended in the window (`since`; those
 * without a timestamp are left out), and checks both versions against every version the log
 * holds (in the window or not): a version no conversation has is a ConfigError listing those seen,
 * as is the same version twice.
 */
export function canaryWindow(rows: Iterable<CanaryLogRow>, options: { stable: string; canary: string; since?: Date; logsFile: string }): CanaryWindow {
  const versions = new Set<string>();
  const conversations: CanaryWindow['conversations'] = [];
  let withoutVersion = 0;
  let outsideWindow = 0;
  for (const row of rows) {
    if (row.prompt_version === undefined) {
      withoutVersion += 1;
      continue;
    }
    versions.add(row.prompt_version);
    if (options.since !== undefined && (row.ended === undefined || row.ended < options.since)) {
      outsideWindow += 1;
      continue;
    }
    conversations.push({ conversation_id: row.conversation_id, prompt_version: row.prompt_version });
  }
  for (const [flag, version] of [
    ['--stable', options.stable],
    ['--canary', options.canary],
  ] as const) {
    if (!versions.has(version)) {
      const seen = versions.size === 0 ? 'none: add prompt_version to each logged conversation' : [...versions].sort().join(', ');
      throw new ConfigError({ file: options.logsFile, message: `${flag} ${version}: no conversation in the log has prompt_version "${version}" (versions seen: ${seen})` });
    }
  }
  if (options.stable === options.canary) throw new ConfigError('--stable and --canary name the same prompt version');
  return { conversations, withoutVersion, outsideWindow };
}

/** A judged score as `parley monitor` stores it. */
export interface StoredScore {
  conversation_id: string;
  metric: string;
  score: number | null;
  passed: boolean;
  error: boolean;
}

/** Where the judged scores of production conversations are read from (the store `parley monitor` writes), or undefined when there is none. */
export interface ScoreSource {
  suite: string;
  scores(): Iterable<StoredScore>;
}

/**
 * The judged scores of these conversations: a numeric score as it is, a pass/fail metric as 1/0,
 * errors left out. Without a source there are no scores (the comparison of metrics is left out),
 * and the note says why.
 */
export function judgedScores(source: ScoreSource | undefined, conversationIds: ReadonlySet<string>): { scores?: ConversationScore[]; note?: string } {
  if (source === undefined) return { note: 'judged metrics: not compared (no production scores stored by parley monitor in this project)' };
  const scores: ConversationScore[] = [];
  for (const score of source.scores()) {
    if (score.error || !conversationIds.has(score.conversation_id)) continue;
    scores.push({ conversation_id: score.conversation_id, metric: score.metric, score: score.score ?? (score.passed ? 1 : 0) });
  }
  return scores.length > 0 ? { scores } : { scores, note: `judged metrics: parley monitor stored no scores of suite ${source.suite} for these conversations` };
}

/** The conversations with a 👎 among feedback verdicts. */
export function negativeConversations(feedback: Iterable<{ conversation_id: string; verdict: string }>): Set<string> {
  const negative = new Set<string>();
  for (const item of feedback) if (item.verdict === 'negative') negative.add(item.conversation_id);
  return negative;
}
