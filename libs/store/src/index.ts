export { defaultStorePath } from './store-path.js';
export {
  openStore,
  reportedAttempt,
  type Store,
  type ListRunsOptions,
  type ScenarioResultsOptions,
  type ScenarioAttempt,
  type MetricHistoryEntry,
} from './store.js';
export type { NewRun, RunFinish, RunRow } from './run-rows.js';
export type { AgentRunRow, AgentRunsOptions } from './run-history/agent-runs.js';
export type { FlakyMark } from './flaky-marks.js';
export {
  defaultHistoryRetention,
  type HistoryRetention,
  type PruneSelection,
  type PrunePlan,
  type PrunedRun,
  type ProtectedRun,
} from './run-history/prune-runs.js';
export { pruneHistory, compactWhenFreeShare, type PruneHistoryOptions, type PruneHistoryOutcome } from './run-history/prune-history.js';
export type { FolderLeftReason } from './run-history/report-folders.js';
export type { AgentHistory, AgentHistoryOptions, AgentRunSummary } from './agent-history.js';
export { migrations, migrate, schemaVersion, DatabaseVersionError, type Migration } from './migrations.js';
export { openDatabase, busyTimeoutMs } from './open-database.js';
export { databaseDiskFull } from './database-disk-full.js';
export { runState } from './run-state.js';
export {
  openJudgeCache,
  type JudgeCacheStore,
  type JudgeCacheRecord,
  type JudgeCacheStats,
  type JudgeCacheGroup,
  type JudgeCacheFilter,
} from './judge-cache-store.js';
export { openModelSpend, type ModelSpend, type ModelSpendStore, type RunSpend } from './model-spend-store.js';
export { summarizeSpend, NOT_ITEMISED, type SpendSummary } from './spend-summary.js';
export { openJudgeAgreement, type JudgeAgreementStore, type JudgeAgreementRecord } from './judge-agreement-store.js';
export { openMonitorStore, type MonitorStore, type MonitorClaim, type MonitoredConversation, type MonitorScore, type TimedMonitorScore } from './monitor-store.js';
export { openMonitorBatchStore, type MonitorBatchStore, type MonitorBatch, type BatchAnswerRow } from './monitor-batch-store.js';
export { abandonedHere, claimHolder } from './claim-holder.js';
export { openOutbox, outboxOn, type OutboxStore, type OutboxEntry, type OutboxKind, type PendingDelivery } from './outbox-store.js';
export { openJudgeSpend, type JudgeSpendStore, type JudgeModelSpend, type JudgeSpendEntry, type JudgeSpendSource } from './judge-spend-store.js';
export { openSql } from './open-sql.js';
export { storeExists, storeUrlFrom, storeUrlFor, keepStoreLocal, databaseUrlVariable, useSuiteStoreSetting, onStoreNotice } from './store-location.js';
export { storeShownFor } from './store-shown.js';
export type { SyncSql, SqlParams, SqlRow, SqlValue, SqlDialect } from './sql/sync-sql.js';
export { reserveBudget, settleBudget, budgetState, type BudgetState } from './sql/shared-budget.js';
export { claimVerdict, claimOrAwaitVerdict, storeVerdict, releaseClaim, renewClaim, type ClaimOutcome, type AwaitVerdictOptions } from './sql/judge-claims.js';
export { copyStoreBetween } from './store-copy.js';
export { cachedOrClaimed, realSleep, JUDGE_CLAIM_LEASE_MS, JUDGE_CLAIM_POLL_MS, type ClaimableCache, type Sleep } from './judge-claiming.js';
