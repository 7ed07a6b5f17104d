import { formatIssue, type ConfigIssue, displayPath, terminalSafe } from '@parley/core';
import { paint, type Output } from './output.js';
import { hangingWrap } from './text-wrap.js';

/**
 * Prints every issue as `file:line:column: message`, errors first. On a terminal a long message
 * wraps under its first line; elsewhere (CI logs, editors' problem matchers) each issue stays one
 * line so tools can read it.
 */
export function printIssues(output: Output, issues: ConfigIssue[], cwd: string): void {
  const colors = paint(output.color);
  const ordered = [...issues].sort((left, right) => Number(left.severity === 'warning') - Number(right.severity === 'warning'));
  for (const issue of ordered) {
    const warning = issue.severity === 'warning';
    const prefix = warning ? 'warning:' : 'error:';
    // A message may quote a file or a log (JSON.parse quotes the line): control characters are shown as escapes.
    const text = `${prefix} ${terminalSafe(formatIssue({ ...issue, file: displayPath(issue.file, cwd) }))}`;
    const lines = output.wrap ? hangingWrap(text, output.columns - 1, '    ') : [text];
    lines[0] = (warning ? colors.yellow(prefix) : colors.red(prefix)) + lines[0]!.slice(prefix.length);
    output.err(`${lines.join('\n')}\n`);
  }
}

