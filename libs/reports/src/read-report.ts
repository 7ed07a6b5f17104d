import { statSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigText, readTextFile } from '@parley/config';
import { ConfigError } from '@parley/core';
import { ReportFileSchema } from './report-file-schema.js';
import { REPORT_SCHEMA_VERSION, type RunReport } from './report-schema.js';

/**
 * Reads a `report.json`, given as the file or the folder holding it (what `--out` named), and
 * validates it. Problems are ConfigErrors (exit 2) naming the file, with line and column where
 * the JSON or the schema is at fault; a report of another `schema_version` says so before anything
 * else, since its other complaints would only be symptoms.
 */
export function readReportFile(path: string): RunReport {
  const file = isDirectory(path) ? join(path, 'report.json') : path;
  const text = readTextFile(file);
  if (typeof text !== 'string') {
    // Bytes that are not UTF-8 and control characters have a place in the file: name it, as every reader of files people give does.
    const where = text.line === undefined ? {} : { line: text.line, ...(text.column === undefined ? {} : { column: text.column }) };
    throw new ConfigError({ file, ...where, message: `cannot read the report: ${text.problem}` });
  }
  const parsed = parseConfigText(text, file, ReportFileSchema, { format: 'json' });
  if (parsed.raw === undefined) throw new ConfigError(parsed.issues);
  const version = typeof parsed.raw === 'object' && parsed.raw !== null ? (parsed.raw as Record<string, unknown>)['schema_version'] : undefined;
  if (version !== REPORT_SCHEMA_VERSION) {
    const found = version === undefined ? 'has no schema_version (is it a Parley report.json?)' : `has schema_version ${JSON.stringify(version)}`;
    throw new ConfigError(
      parsed.issueAt(version === undefined ? [] : ['schema_version'], `this report ${found}; this Parley reads report schema_version ${REPORT_SCHEMA_VERSION}: re-run the suite with this version of Parley`),
    );
  }
  if (parsed.data === undefined) throw new ConfigError(parsed.issues);
  return parsed.data;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
