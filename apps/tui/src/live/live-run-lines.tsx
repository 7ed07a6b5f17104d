import type { ReactElement } from 'react';
import { Text } from 'ink';
import { formatIssue, type ConfigIssue } from '@parley/core';
import type { RunOutcome } from '@parley/runner';
import { wrapText } from '../rate/wrap-text.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from '../theme.js';
import { describeCounts, displayPath, formatElapsed, formatUsd, progressBar } from './live-format.js';
import type { LiveRunSession } from './live-run-session.js';

/** Width of the progress bar: what the line leaves, within 10…40 cells. */
function barWidth(columns: number, rest: string): number {
  return Math.max(10, Math.min(40, columns - rest.length - 2));
}

/** The lines above the list while the run goes: progress, counts and spend, and what Ctrl-C did. */
export function runningLines(session: LiveRunSession, elapsedMs: number, columns: number): ReactElement[] {
  const { progress, budget } = session;
  if (progress.runId === undefined) {
    return [
      <Text key="loading" wrap="truncate-end">
        Loading the suite… <Text dimColor>{formatElapsed(elapsedMs)}</Text>
      </Text>,
    ];
  }
  const rest = ` ${progress.finished}/${progress.total} done · ${progress.running} running · ${progress.waiting} waiting · ${formatElapsed(elapsedMs)}`;
  const fraction = progress.total === 0 ? 1 : progress.finished / progress.total;
  const spend = progress.spend();
  const spent = (budget?.spentBeforeUsd ?? 0) + spend.usd;
  const spendText = budget
    ? `spend ${formatUsd(spent)} of ${formatUsd(budget.limitUsd)} budget ${progressBar(budget.limitUsd === 0 ? 1 : spent / budget.limitUsd, 10)}`
    : `spend ${formatUsd(spent)} (no budget)`;
  const lines = [
    <Text key="bar" wrap="truncate-end">
      {progressBar(fraction, barWidth(columns, rest))}
      {rest}
    </Text>,
    <Text key="counts" wrap="truncate-end">
      {describeCounts(progress.counts())} <Text dimColor>·</Text> {spendText}
      {spend.unpriced ? <Text dimColor> + calls without a known price</Text> : null}
    </Text>,
  ];
  if (session.stopping) {
    lines.push(<StoppingLine key="stopping" />);
  } else if (budget && spent >= budget.limitUsd) {
    lines.push(<BudgetReachedLine key="budget" />);
  }
  return lines;
}

function BudgetReachedLine() {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end" color={theme.paint('yellow')}>
      Budget reached: scenarios not started yet are skipped (reason: budget)
    </Text>
  );
}

function StoppingLine() {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end" bold color={theme.paint('yellow')}>
      Stopping (no new scenarios, finished results kept) · Ctrl-C again quits now
    </Text>
  );
}

/** The lines above the list once the run is over: status, counts, exit code, spend, reports. */
export function finishedLines(outcome: RunOutcome, cwd: string, earlier = 0): ReactElement[] {
  const { report } = outcome;
  return [<FinishedStatusLine key="status" outcome={outcome} earlier={earlier} />, ...finishedDetailLines(outcome, cwd, report.budget?.downgrades ?? [])];
}

/**
 * `earlier`: results a resumed run had before this process took it up. The counts and the list
 * below both cover every result of the run; the line says how many of them were there already.
 */
function FinishedStatusLine({ outcome, earlier }: { outcome: RunOutcome; earlier: number }) {
  const theme = useTheme();
  const { report } = outcome;
  return (
    <Text wrap="truncate-end">
      <Text bold color={outcome.interrupted ? theme.paint('yellow') : theme.status(report.status)}>
        {outcome.interrupted ? 'INTERRUPTED' : report.status.toUpperCase()}
      </Text>
      {` · ${report.results.length} scenario${report.results.length === 1 ? '' : 's'}${earlier > 0 ? ` (${earlier} from before the resume)` : ''}: ${describeCounts(report.counts)} · `}
      <Text bold>exit {outcome.exit_code}</Text>
    </Text>
  );
}

function finishedDetailLines(outcome: RunOutcome, cwd: string, downgrades: readonly string[]): ReactElement[] {
  const { report } = outcome;
  const cost = report.cost_usd === null ? 'cost unknown (calls without a known price)' : formatUsd(report.cost_usd);
  const budget = report.budget ? ` of ${formatUsd(report.budget.limit_usd)} budget${report.budget.exhausted ? ' (reached)' : ''}` : '';
  const lines = [
    <Text key="spend" wrap="truncate-end">
      {`${cost}${budget} · ${(report.duration_ms / 1000).toFixed(2)} s · ${report.mode}`}
    </Text>,
    <Text key="reports" wrap="truncate-end" dimColor>
      reports: {displayPath(outcome.out_dir, cwd)}
    </Text>,
  ];
  if (outcome.interrupted) {
    lines.push(
      <Text key="interrupted" wrap="truncate-end" bold>
        Interrupted: finished results are kept in the reports and the run history.
      </Text>,
      <Text key="resume" wrap="truncate-end" bold>
        Resume with: parley run --resume {report.run_id}
      </Text>,
    );
  }
  for (const downgrade of downgrades) {
    lines.push(
      <Text key={`downgrade-${downgrade}`} wrap="truncate-end" dimColor>
        budget: {downgrade}
      </Text>,
    );
  }
  return lines;
}

/** A configuration error: every issue with its file:line:column (wrapped, never cut), and the exit code. */
export function ConfigErrorLines({ issues, cwd, rows }: { issues: readonly ConfigIssue[]; cwd: string; rows: number }) {
  const theme = useTheme();
  const { columns } = useTerminalSize();
  const room = Math.max(1, rows - 2);
  const lines: string[] = [];
  let shownIssues = 0;
  for (const issue of issues) {
    const text = `${issue.severity === 'warning' ? 'warning: ' : 'error: '}${formatIssue({ ...issue, file: displayPath(issue.file, cwd) })}`;
    const wrapped = wrapText(text, columns, 2);
    if (lines.length + wrapped.length > room && shownIssues > 0) break;
    lines.push(...wrapped.slice(0, room));
    shownIssues += 1;
  }
  return (
    <>
      <Text bold color={theme.paint('red')}>
        Configuration error · exit 2 · nothing ran
      </Text>
      {lines.map((line, index) => (
        <Text key={index} wrap="truncate-end">
          {line}
        </Text>
      ))}
      {issues.length > shownIssues ? <Text dimColor>… and {issues.length - shownIssues} more (parley validate lists them all)</Text> : null}
    </>
  );
}
