import { formatIssue, type ConfigIssue } from '@parley/core';
import type { Output } from './output.js';

/** Prints every issue as `file:line:column: message`, errors first. */
export function printIssues(output: Output, issues: ConfigIssue[], cwd: string): void {
  const ordered = [...issues].sort((left, right) => Number(left.severity === 'warning') - Number(right.severity === 'warning'));
  for (const issue of ordered) {
    const prefix = issue.severity === 'warning' ? 'warning: ' : 'error: ';
    output.err(`${prefix}${formatIssue({ ...issue, file: relativePath(issue.file, cwd) })}\n`);
  }
}

function relativePath(file: string, cwd: string): string {
  if (file.startsWith(`${cwd}/`)) return file.slice(cwd.length + 1);
  return file;
}
