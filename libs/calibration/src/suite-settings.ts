import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '@parley/core';
import { readConfigFile, SuiteSchema, type SuiteFile } from '@parley/config';
import { composeRules, createRedactor, secretValues, suiteRedactor, type Redactor } from '@parley/redaction';
import type { ResilienceSettings } from '@parley/providers';

/** The parts of a suite calibration uses: its judges, redaction settings, prices and call settings. */
export interface SuiteSettings {
  dir: string;
  config: SuiteFile;
}

/**
 * Reads only `parley.yaml` of `--suite DIR` (not its scenarios: calibration needs the judges and
 * the redaction settings). Problems are a ConfigError with file:line:column.
 */
export function readSuiteSettings(path: string): SuiteSettings {
  const absolute = resolve(path);
  const file = existsSync(absolute) && statSync(absolute).isDirectory() ? join(absolute, 'parley.yaml') : absolute;
  const parsed = readConfigFile(file, SuiteSchema, { format: 'yaml' });
  const errors = parsed.issues.filter((issue) => issue.severity !== 'warning');
  if (errors.length > 0 || parsed.data === undefined) throw new ConfigError(errors.length > 0 ? errors : [{ file, message: 'not a suite file' }]);
  return { dir: dirname(file), config: parsed.data };
}

/**
 * The one redactor for imports: the suite's (identities, rules, vertical extras) when there is a
 * suite, else the floor; both also mask the environment's secrets.
 */
export function importRedactor(suite: SuiteSettings | undefined, env: NodeJS.ProcessEnv): Redactor {
  if (suite !== undefined) return suiteRedactor(suite, { env });
  return createRedactor({ rules: composeRules({ secretValues: secretValues(env) }) });
}

/** The suite's timeout and retry settings for live judge calls. */
export function resilienceOf(suite: SuiteSettings | undefined): ResilienceSettings {
  const settings = suite?.config.settings;
  return {
    ...(settings?.timeout_ms !== undefined ? { timeoutMs: settings.timeout_ms } : { timeoutMs: 120_000 }),
    retry: {
      ...(settings?.retries?.max !== undefined ? { maxRetries: settings.retries.max } : {}),
      ...(settings?.retries?.base_delay_ms !== undefined ? { baseDelayMs: settings.retries.base_delay_ms } : {}),
      ...(settings?.retries?.max_delay_ms !== undefined ? { maxDelayMs: settings.retries.max_delay_ms } : {}),
    },
  };
}
