import { renderRunHtml } from '@parley/html-report';
import type { Reporter, ReporterContext } from './reporter.js';

/**
 * `html`: the run's self-contained report.html on stdout (`parley run … --reporter html > run.html`).
 * Every run writes report.html into its report folder anyway; this is for a pipe or another file.
 */
export function htmlReporter(context: ReporterContext): Reporter {
  return {
    name: 'html',
    ownsStdout: true,
    showsWarnings: false,
    onRunEnd(outcome) {
      context.output.out(renderRunHtml(outcome.report));
    },
  };
}
