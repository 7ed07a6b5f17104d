import type { z } from 'zod';
import { logFileLines, LogIssues, type LogLine } from './log-lines.js';

/** One parsed line of a JSON-lines file, with the line it came from (for messages). */
export interface Located<Value> {
  line: number;
  value: Value;
}

/**
 * Reads a JSON-lines file (as a stream of bounded lines, see log-lines.ts) and validates each
 * non-blank line against `schema`. Bad lines are reported together, as `file:line:column: message`,
 * in one ConfigError (exit 2), the first 20 in full and the rest counted: a production export
 * with a broken line is fixed once, not one error per run.
 */
export function readJsonLines<Schema extends z.ZodType>(path: string, schema: Schema, what: string): Array<Located<z.output<Schema>>> {
  const issues = new LogIssues(path);
  const values: Array<Located<z.output<Schema>>> = [];
  for (const line of logFileLines(path, what, issues)) {
    const value = parseJsonLine(line, schema, what, issues);
    if (value !== undefined) values.push({ line: line.line, value });
  }
  issues.throwIfAny();
  return values;
}

/** The same, over text already read (a dataset file). */
export function parseJsonLines<Schema extends z.ZodType>(text: string, file: string, schema: Schema, what: string): Array<Located<z.output<Schema>>> {
  const issues = new LogIssues(file);
  const values: Array<Located<z.output<Schema>>> = [];
  for (const [index, raw] of text.replace(/^\uFEFF/, '').split('\n').entries()) {
    const value = parseJsonLine({ line: index + 1, text: raw.replace(/\r$/, '') }, schema, what, issues);
    if (value !== undefined) values.push({ line: index + 1, value });
  }
  issues.throwIfAny();
  return values;
}

/** A line's value, or undefined (blank, or bad: the issue is added). */
export function parseJsonLine<Schema extends z.ZodType>({ line, text }: LogLine, schema: Schema, what: string, issues: LogIssues): z.output<Schema> | undefined {
  if (text.trim() === '') return undefined;
  const parsed = parseJson(text, line, issues);
  if (parsed === NOT_JSON) return undefined;
  const result = schema.safeParse(parsed);
  if (!result.success) {
    issues.add(line, `not a ${what} entry: ${firstProblem(result.error)}`);
    return undefined;
  }
  return result.data;
}

export const NOT_JSON: unique symbol = Symbol('not JSON');

/** The JSON of a line, or NOT_JSON with the issue added. */
export function parseJson(text: string, line: number, issues: LogIssues): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    issues.add(line, `not valid JSON: ${(error as Error).message}`);
    return NOT_JSON;
  }
}

/** Where a value first fails its schema: `turns.0.role: Invalid option…`. */
export function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : '(the line)';
  return `${where}: ${issue?.message ?? 'invalid'}`;
}

