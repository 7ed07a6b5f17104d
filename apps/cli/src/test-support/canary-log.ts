import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One prompt version's share of a canary log. */
export interface CanaryArm {
  version: string;
  /** Conversations on this version: `<version>-conv-<index>`. */
  count: number;
  /** The first `negative` of them get a 👎. */
  negative: number;
  /** Every n-th of the rest gets a 👍 (none when absent). */
  positiveEvery?: number;
  /** How long before `now` its conversations ended (1 hour when absent). */
  hoursAgo?: number;
}

/**
 * A production log of a canary rollout (`conversations.jsonl`: two-turn booking conversations of
 * tenant zuri_spa, tagged with their prompt version) and its feedback (`feedback.jsonl`), in `dir`.
 * Returns the two files' paths.
 */
export function writeCanaryLog(dir: string, arms: readonly CanaryArm[], now = new Date()): { logs: string; feedback: string } {
  const logLines: string[] = [];
  const feedbackLines: string[] = [];
  for (const arm of arms) {
    const ended = new Date(now.getTime() - (arm.hoursAgo ?? 1) * 3_600_000).toISOString();
    for (let index = 0; index < arm.count; index += 1) {
      const id = `${arm.version}-conv-${index}`;
      const turns = [
        { role: 'user', content: `Is there a slot on Friday at ${index}?`, timestamp: ended },
        { role: 'assistant', content: 'Yes, 10:00 or 14:00.', timestamp: ended },
      ];
      logLines.push(JSON.stringify({ conversation_id: id, tenant: 'zuri_spa', prompt_version: arm.version, turns }));
      if (index < arm.negative) feedbackLines.push(JSON.stringify({ conversation_id: id, user_feedback: '👎' }));
      else if (arm.positiveEvery !== undefined && index % arm.positiveEvery === 0) feedbackLines.push(JSON.stringify({ conversation_id: id, user_feedback: '👍' }));
    }
  }
  const logs = join(dir, 'conversations.jsonl');
  const feedback = join(dir, 'feedback.jsonl');
  writeFileSync(logs, `${logLines.join('\n')}\n`);
  writeFileSync(feedback, `${feedbackLines.join('\n')}\n`);
  return { logs, feedback };
}
