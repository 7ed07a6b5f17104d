import { readFileSync } from 'node:fs';
import { ConfigError, type ConfigIssue } from '@parley/core';
import type { z } from 'zod';

/** One parsed line of a JSON-lines file, with the line it came from (for messages). */
export interface Located<Value> {
  line: number;
  value: Value;
}

/**
 * Reads a JSON-lines file and validates each non-blank line against `schema`. Every bad line is
 * reported at once, as `file:line:column: message`, in one ConfigError (exit 2): a production
 * export with a broken line is fixed once, not one error per run.
 */
export function readJsonLines<Schema extends z.ZodType>(path: string, schema: Schema, what: string): Array<Located<z.output<Schema>>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError({ file: path, message: `cannot read the ${what}: ${(error as Error).message}` });
  }
  return parseJsonLines(text, path, schema, what);
}

export function parseJsonLines<Schema extends z.ZodType>(text: string, file: string, schema: Schema, what: string): Array<Located<z.output<Schema>>> {
  const values: Array<Located<z.output<Schema>>> = [];
  const issues: ConfigIssue[] = [];
  for (const [index, raw] of text.replace(/^\uFEFF/, '').split('\n').entries()) {
    if (raw.trim() === '') continue;
    const line = index + 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      issues.push({ file, line, column: 1, message: `not valid JSON: ${(error as Error).message}` });
      continue;
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : '(the line)';
      issues.push({ file, line, column: 1, message: `not a ${what} entry: ${where}: ${issue?.message ?? 'invalid'}` });
      continue;
    }
    values.push({ line, value: result.data });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return values;
}
