import { renderJunit } from '@parley/reports';
import type { Reporter, ReporterContext } from './reporter.js';

/** `junit`: junit.xml on stdout, for CI systems that read JUnit XML. */
export function junitReporter(context: ReporterContext): Reporter {
  return {
    name: 'junit',
    ownsStdout: true,
    showsWarnings: false,
    onRunEnd(outcome) {
      context.output.out(renderJunit(outcome.report));
    },
  };
}
