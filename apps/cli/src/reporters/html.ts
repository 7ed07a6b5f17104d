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
    async onRunEnd(outcome) {
      // Loaded when used: the page's script and style are not for every command's start-up.
      const { renderRunHtml } = await import('@parley/html-report');
      context.output.out(renderRunHtml(outcome.report));
    },
  };
}
