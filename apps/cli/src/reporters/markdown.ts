import { renderSummaryMarkdown } from '@parley/reports';
import type { Reporter, ReporterContext } from './reporter.js';

/** `markdown`: summary.md on stdout, for a PR comment or a job summary. */
export function markdownReporter(context: ReporterContext): Reporter {
  return {
    name: 'markdown',
    ownsStdout: true,
    showsWarnings: false,
    onRunEnd(outcome) {
      context.output.out(renderSummaryMarkdown(outcome.report));
    },
  };
}
