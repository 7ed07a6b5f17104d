export * from './run-suite.js';
export * from './run-options.js';
export { listRunCases } from './plan-run.js';
export { defaultMode } from './suite-paths.js';
export { loadSuiteForRun } from './load-suite-for-run.js';
export { recordingIssues } from './recording-issues.js';
export { lastFailedCases, lastFailedForRun, type LastFailed } from './last-failed.js';
export * from './run-id.js';
export * from './session.js';
export * from './select-scenarios.js';
export * from './metric-catalog.js';
export * from './event-log.js';
export { runScenario, summariseCost } from './scenario-run.js';
export * from './isolation-hooks.js';
export * from './budget.js';
export { runBudget, type RunBudget, type RunBudgetOptions } from './run-budget.js';
export { loadResumeState, type ResumeState } from './resume-run.js';
export { exportCommand, prepareBaselineGating, writeBaselineFile, type BaselineGating, type MetricGate } from './baseline-gating.js';
export { planGate, type GatePlan, type GatingOptions } from './gate-plan.js';
export { selectForRun, type RunSelectionOptions, type SelectedScenarios } from './run-selection.js';
export { changedSince, type ChangeSet } from './changed-files.js';
export { affectedScenarios, suiteConfigChange, type AffectedScenarios, type SuiteConfigChange } from './affected-scenarios.js';
export { runRepeated, type RepeatedRun } from './repeat-scenario.js';
export { createCassette, type ScenarioCassette } from './cassette.js';
export { mergeShardRuns, type MergedRun } from './merge-shard-runs.js';
export { loadSuiteAgents, type AgentFamily, type SuiteAgent, type SuiteAgents, type SuiteAgentsResult } from './suite-agents.js';
export {
  readAgentIndex,
  buildAgentIndex,
  filterAgentIndex,
  agentIndexChoices,
  agentPassRate,
  agentRunStatus,
  AGENT_RUN_STATUSES,
  type AgentIndex,
  type AgentIndexRow,
  type AgentIndexFilter,
  type AgentRunStatus,
  type ReadAgentIndexOptions,
} from './agent-index.js';
export * from './rerecording.js';
export * from './triage-location.js';
export * from './rerun-scenario.js';
