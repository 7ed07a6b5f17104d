/** A place in a source file, 1-based line and column. */
interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface ConfigIssue extends SourceLocation {
  message: string;
  /** Severity: errors stop a run (exit 2); warnings are printed and (under --strict) become errors. */
  severity?: 'error' | 'warning';
}

/**
 * A problem with the user's files or flags: the CLI turns it into exit code 2 and prints every
 * issue as `file:line:column: message`.
 */
export class ConfigError extends Error {
  readonly issues: ConfigIssue[];

  constructor(issues: ConfigIssue[] | ConfigIssue | string) {
    const list: ConfigIssue[] =
      typeof issues === 'string' ? [{ file: '', message: issues }] : Array.isArray(issues) ? issues : [issues];
    super(list.map(formatIssue).join('\n'));
    this.name = 'ConfigError';
    this.issues = list;
  }
}

/** `file:line:column: message` (parts that are unknown are left out). */
export function formatIssue(issue: ConfigIssue): string {
  const where = [issue.file, issue.line, issue.column].filter((part) => part !== undefined && part !== '').join(':');
  return where ? `${where}: ${issue.message}` : issue.message;
}

export function isConfigError(error: unknown): error is ConfigError {
  return error instanceof ConfigError;
}
