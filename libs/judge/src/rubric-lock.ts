import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomically, type ConfigIssue } from '@parley/core';
import { readConfigFile, RubricMetricSchema, type LoadedRubricMetric } from '@parley/config';
import * as z from 'zod';

/** The lock file, beside the metric files: `metrics/.rubric-lock.json`. Commit it. */
const RUBRIC_LOCK_FILE_NAME = '.rubric-lock.json';

/**
 * `metrics/.rubric-lock.json`: per rubric metric, every version Parley has seen with the sha256 of
 * its rubric (docs/file-formats.md, "Rubric lock"). A separate file, not a field in the metric file,
 * so that nobody has to compute a hash by hand: Parley writes it, the team commits it, and review
 * shows a version bump next to every rubric change. Every version is kept, not only the latest: a
 * metric taken back from 1.1.0 to 1.0.0 with another rubric would otherwise reuse the verdicts and
 * baselines that 1.0.0 earned with the old one.
 */
const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'a hex sha256');

const RubricLockSchema = z.strictObject({
  schema_version: z.literal(2),
  metrics: z.record(z.string(), z.strictObject({ versions: z.record(z.string().min(1), Sha256Schema) })),
});
type RubricLock = z.infer<typeof RubricLockSchema>;

/** The first lock format kept one version per metric; it is read as schema 2, and written as such when a version is recorded. */
const RubricLockV1Schema = z.strictObject({
  schema_version: z.literal(1),
  metrics: z.record(z.string(), z.strictObject({ version: z.string().min(1), rubric_sha256: Sha256Schema })),
});

const AnyRubricLockSchema = z.union([RubricLockSchema, RubricLockV1Schema]).transform((lock): RubricLock => {
  if (lock.schema_version === 2) return lock;
  return { schema_version: 2, metrics: Object.fromEntries(Object.entries(lock.metrics).map(([name, entry]) => [name, { versions: { [entry.version]: entry.rubric_sha256 } }])) };
});

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
  let lock: RubricLock = { schema_version: 2, metrics: {} };
  if (existsSync(file)) {
    const parsed = readConfigFile(file, AnyRubricLockSchema, { format: 'json' });
    if (parsed.data === undefined) {
      result.issues.push(...parsed.issues.map((issue) => ({ ...issue, message: `${issue.message} (delete the file to record every rubric afresh)` })));
      return result;
    }
    lock = parsed.data;
  }
  const next: RubricLock = { schema_version: 2, metrics: Object.fromEntries(Object.entries(lock.metrics).map(([name, entry]) => [name, { versions: { ...entry.versions } }])) };
  for (const metric of metrics) {
    const { name, version } = metric.data;
    const versions = Object.hasOwn(lock.metrics, name) ? lock.metrics[name]!.versions : {};
    const recordedSha = Object.hasOwn(versions, version) ? versions[version] : undefined;
    if (recordedSha !== undefined) {
      if (recordedSha !== metric.rubricSha256) {
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
    next.metrics[name] = { versions: { ...next.metrics[name]?.versions, [version]: metric.rubricSha256 } };
    result.recorded.push(`${name}@${version}`);
  }
  if (options.write && result.recorded.length > 0 && result.issues.length === 0) writeLock(file, next);
  return result;
}

function writeLock(file: string, lock: RubricLock): void {
  const byName = ([left]: [string, unknown], [right]: [string, unknown]) => (left < right ? -1 : left > right ? 1 : 0);
  const sorted = Object.fromEntries(Object.entries(lock.metrics).sort(byName).map(([name, entry]) => [name, { versions: Object.fromEntries(Object.entries(entry.versions).sort(byName)) }]));
  const text = `${JSON.stringify({ schema_version: 2, metrics: sorted }, null, 2)}\n`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomically(file, text);
}
