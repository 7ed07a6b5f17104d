export type { JudgeMetric, JudgeTask, JudgeVerdict } from './judge-metric.js';
export { renderTranscriptForJudge } from './render-transcript.js';
export { transcriptDigest } from './transcript-digest.js';
export { languageName } from './language-names.js';
export { askJudge, judgeRequest, parseJsonAnswer, JUDGE_MAX_TOKENS, type JudgeAnswer } from './ask-judge.js';
export {
  conversationJudgeMetric,
  ConversationJudgeParamsSchema,
  CONVERSATION_JUDGE_INSTRUCTIONS,
  type ConversationJudgeParams,
} from './conversation-judge.js';
export { rubricMetric, rubricInstructions, RubricParamsSchema, RUBRIC_DEFAULT_THRESHOLD, type CriterionStatus } from './rubric-metric.js';
export { fluencyEnRubric } from './rubrics/fluency-en.js';
export { fluencySwRubric } from './rubrics/fluency-sw.js';
export { builtInJudgeMetrics, judgeMetricCatalog, judgeMetricParamSchemas, judgeMetricVersions, expectationsWithFluency } from './judge-catalog.js';
export { judgeExpectation, judgeResult, verdictPasses, type JudgeOutcome, type Vote, type JudgeExpectationInput } from './judge-expectation.js';
export { judgeCacheKey, type JudgeCache, type JudgeCacheEntry, type JudgeCacheKeyParts } from './judge-cache.js';
export { promptVersion } from './prompt-version.js';
export { crossCheckSample } from './cross-check-sample.js';
export { JudgeRun, modelVersion, votesOnFailOf, DEFAULT_CROSS_CHECK_SAMPLE, CROSS_CHECK_BUDGET_SHARE, type JudgeRunOptions, type ScenarioToJudge, type BudgetView, type CrossCheckPair } from './judge-run.js';
export { checkRubricLock, RubricLockSchema, RUBRIC_LOCK_FILE_NAME, type RubricLock, type RubricLockCheck } from './rubric-lock.js';
export { judgeSetupIssues } from './judge-setup.js';
export {
  judgePair,
  pairwiseTask,
  summarisePairwise,
  PAIRWISE_INSTRUCTIONS,
  PAIRWISE_VERSION,
  type PairwiseOrder,
  type PairwiseResult,
  type PairwiseSide,
  type PairwiseSummary,
} from './pairwise-judge.js';
export { liveJudgeProvider } from './live-judge-provider.js';
