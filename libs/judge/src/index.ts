export type { JudgeMetric } from './judge-metric.js';
export { renderTranscriptForJudge } from './render-transcript.js';
export { judgeMetricCatalog, judgeMetricParamSchemas, judgeMetricVersions, expectationsWithFluency } from './judge-catalog.js';
export { promptVersion } from './prompt-version.js';
export { JudgeRun, modelVersion, type BudgetView, type CrossCheckPair } from './judge-run.js';
export { checkRubricLock } from './rubric-lock.js';
export { judgeSetupIssues } from './judge-setup.js';
export {
  judgePair,
  summarisePairwise,
  type PairwiseResult,
  type PairwiseSummary,
} from './pairwise-judge.js';
export { liveJudgeProvider } from './live-judge-provider.js';
