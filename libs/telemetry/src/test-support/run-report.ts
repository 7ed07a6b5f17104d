import type { RunReport } from '@parley/reports';
import { promptAgentResult, sampleReport } from './sample-report.js';

/** A finished replay run of one booking scenario: three calls, two metric results, and (unless metadata_only) its transcript. */
export function report(metadataOnly: boolean): RunReport {
  const result = promptAgentResult(metadataOnly);
  result.metrics = result.metrics.slice(0, 2);
  return sampleReport([result]);
}
