import { isInPercentage } from '@parley/canary';
import { readProductionLog, type Located, type LoggedConversation } from '@parley/production';

export interface SampleOptions {
  /** Percent of conversations to sample (0–100). */
  percent: number;
  /** Salt of the hash: another salt draws an independent sample (`parley-monitor` by default, so it is not the canary's slice). */
  salt: string;
  /** Only conversations that ended at or after this time (conversations without turn timestamps are left out, and counted). */
  since?: Date;
}

export interface SampledConversations {
  sampled: Array<Located<LoggedConversation>>;
  /** Conversations in the file (non-blank lines). */
  total: number;
  /** Sampled conversations left out because they ended before `since`. */
  beforeWindow: number;
  /** Sampled conversations left out under `since` because no turn has a timestamp. */
  withoutTimestamps: number;
  /** Lines repeating a sampled conversation_id (only its last line is judged). */
  duplicates: number;
}

/** The default salt of monitoring samples. */
export const MONITOR_SALT = 'parley-monitor';

/**
 * Reads a JSON-lines conversation log (the production log every command reads, see
 * readProductionLog) and keeps the deterministic sample: a conversation is in it when
 * `hashBucket(salt, conversation_id)` is below percent × 100, so every run and every machine picks
 * the same conversations. Only sampled lines are validated in full, so 100,000 conversations take
 * seconds and little memory. A conversation logged on several lines is judged once.
 */
export async function readSampledConversations(path: string, options: SampleOptions): Promise<SampledConversations> {
  const log = readProductionLog(path, { keep: (id) => isInPercentage(options.salt, id, options.percent), ...(options.since !== undefined ? { since: options.since } : {}) });
  return { sampled: log.conversations, total: log.total, beforeWindow: log.beforeWindow, withoutTimestamps: log.withoutTimestamps, duplicates: log.duplicates };
}
