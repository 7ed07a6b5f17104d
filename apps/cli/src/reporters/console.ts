import { judgeSummary } from '@parley/reports';
import { renderComparison } from '../output/comparison-table.js';
import { displayPath } from '@parley/core';
import { gateNotes } from '../output/gate-notes.js';
import { paint } from '../output/output.js';
import { renderRunSummary } from '../output/run-summary.js';
import { wrapLines } from '../output/text-wrap.js';
import type { Reporter, ReporterContext } from './reporter.js';

/** `console` (the default): the summary table, the comparison of agents, the judge and gate notes. */
export function consoleReporter(context: ReporterContext): Reporter {
  const { output, cwd } = context;
  return {
    name: 'console',
    ownsStdout: false,
    showsWarnings: true,
    onRunEnd(outcome) {
      const { report } = outcome;
      const exported = outcome.exported_baseline && { file: displayPath(outcome.exported_baseline.file, cwd), entries: outcome.exported_baseline.entries };
      const notes = gateNotes(report, exported);
      context.forPeople(renderRunSummary(report, paint(output.color), displayPath(outcome.out_dir, cwd), output.columns, output.wrap, context.parleyCommand?.() ?? 'parley'));
      const fit = (text: string): string => (output.wrap ? wrapLines(text, output.columns - 1) : text);
      const judge = judgeSummary(report.judge);
      if (report.comparison) context.forPeople(renderComparison(report.comparison, paint(output.color), output.columns));
      if (judge !== null) context.forPeople(`${fit(judge)}\n`);
      if (notes.err) output.err(fit(notes.err));
      if (notes.out) context.forPeople(fit(notes.out));
    },
  };
}
