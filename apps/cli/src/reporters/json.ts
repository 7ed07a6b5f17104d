import { reportJsonChunks } from '@parley/reports';
import type { Reporter, ReporterContext } from './reporter.js';

/** `json`: report.json on stdout and nothing else there (also `--format json`). */
export function jsonReporter(context: ReporterContext): Reporter {
  return {
    name: 'json',
    ownsStdout: true,
    showsWarnings: false,
    onRunEnd(outcome) {
      for (const chunk of reportJsonChunks(outcome.report)) context.output.out(chunk);
    },
  };
}
