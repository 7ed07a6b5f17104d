import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomically, type ConfigIssue } from '@parley/core';
import { readConfigFile, RubricMetricSchema, type LoadedRubricMetric } from '@parley/config';
import { z } from 'zod';

/** The lock file, beside the metric files: `metrics/.rubric-lock.json`. Commit it. */
export const RUBRIC_LOCK_FILE_NAME = '.rubric-lock.json';

/**
 * `metrics/.rubric-lock.json`: per rubric metric, the version and the sha256 of its rubric as last
 * seen (docs/decisions.md, "Rubric lock file": the rubric's content hash is kept beside its
 * version). A separate file, not a field in the metric file, so that nobody has to compute a hash
 * by hand: Parley writes it, the team commits it, and review shows a version bump next to every
 * rubric change.
 */
export const RubricLockSchema = z.strictObject({
  schema_version: z.literal(1),
  metrics: z.record(
    z.string(),
    z.strictObject({ version: z.string().min(1), rubric_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a hex sha256') }),
  ),
});
export type RubricLock = z.infer<typeof RubricLockSchema>;

export interface RubricLockCheck {
  /** The lock file's path. */
  file: string;
  /** Errors: a rubric changed under an unchanged version, or a damaged lock file. */
  issues: ConfigIssue[];
  /** `name@version` entries that were new (new metric or bumped version), recorded in the lock. */
  recorded: string[];
}

/**
 * Compares each rubric metric with the lock: a metric whose version is in the lock with another
 * rubric hash changed its rubric without a version bump, which is an error pointing at the
 * metric's `version` (cached verdicts and baselines of that version would mix two rubrics). A
 * metric or version the lock does not know yet is recorded, and with `write` the lock file is
 * rewritten (atomically) when there is something new and nothing wrong.
 */
export function checkRubricLock(metricsFolder: string, metrics: readonly LoadedRubricMetric[], options: { write: boolean }): RubricLockCheck {
  const file = join(metricsFolder, RUBRIC_LOCK_FILE_NAME);
  const result: RubricLockCheck = { file, issues: [], recorded: [] };
  let lock: RubricLock = { schema_version: 1, metrics: {} };
  if (existsSync(file)) {
    const parsed = readConfigFile(file, RubricLockSchema, { format: 'json' });
    if (parsed.data === undefined) {
      result.issues.push(...parsed.issues.map((issue) => ({ ...issue, message: `${issue.message} (delete the file to record every rubric afresh)` })));
      return result;
    }
    lock = parsed.data;
  }
  const next: RubricLock = { schema_version: 1, metrics: { ...lock.metrics } };
  for (const metric of metrics) {
    const { name, version } = metric.data;
    const entry = Object.hasOwn(lock.metrics, name) ? lock.metrics[name] : undefined;
    if (entry !== undefined && entry.version === version) {
      if (entry.rubric_sha256 !== metric.rubricSha256) {
        const source = readConfigFile(metric.file, RubricMetricSchema, { format: 'yaml' });
        result.issues.push(
          source.issueAt(
            ['version'],
            `the rubric of "${name}" changed but its version is still ${version}: bump the version (verdicts cached and baselines recorded under ${version} judged the old rubric)`,
          ),
        );
      }
      continue;
    }
    next.metrics[name] = { version, rubric_sha256: metric.rubricSha256 };
    result.recorded.push(`${name}@${version}`);
  }
  if (options.write && result.recorded.length > 0 && result.issues.length === 0) writeLock(file, next);
  return result;
}

function writeLock(file: string, lock: RubricLock): void {
  const sorted = Object.fromEntries(Object.entries(lock.metrics).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)));
  const text = `${JSON.stringify({ schema_version: 1, metrics: sorted }, null, 2)}\n`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomically(file, text);
}
