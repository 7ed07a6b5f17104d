import type { Transcript } from '@parley/core';
import * as z from 'zod';
import { REPORT_SCHEMA_VERSION, type RunReport } from './report-schema.js';

/**
 * The zod schema of `report.json` as readers (merge-reports, compare) accept it. Objects are
 * loose: a report written by a newer Parley of the same schema_version may carry fields this one
 * does not know, and they must not make it unreadable. The transcript is checked for its shape
 * only; nothing here reads its messages.
 */
const StatusSchema = z.enum(['pass', 'fail', 'warn', 'flaky', 'error', 'skipped']);
const RunStatusSchema = z.enum(['pass', 'fail', 'warn', 'flaky', 'error', 'skipped', 'interrupted']);
const GateSchema = z.enum(['blocking', 'advisory']);

const CostSchema = z.looseObject({
  input_tokens: z.number(),
  output_tokens: z.number(),
  usd: z.number().nullable(),
  calls: z.number(),
  cached_input_tokens: z.number().optional(),
  cache_saving_usd: z.number().nullable().optional(),
});

const MetricSchema = z.looseObject({
  metric: z.string(),
  version: z.string(),
  score: z.number().nullable(),
  threshold: z.number().nullable(),
  passed: z.boolean(),
  reason: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
  error: z.boolean().optional(),
});

const CallSchema = z.looseObject({
  role: z.enum(['agent', 'simulator', 'judge']),
  provider: z.string(),
  model: z.string(),
  turn: z.number().int().min(0),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost_usd: z.number().nullable(),
  latency_ms: z.number(),
  cached_input_tokens: z.number().optional(),
  cache_write_input_tokens: z.number().optional(),
  response_model: z.string().optional(),
  finish_reason: z.string().optional(),
  server_address: z.string().optional(),
  server_port: z.number().int().optional(),
});

const ErrorSchema = z.looseObject({ kind: z.string(), message: z.string(), details: z.string().optional() });

const TranscriptSchema = z.custom<Transcript>(
  (value) =>
    typeof value === 'object' && value !== null && Array.isArray((value as { turns?: unknown }).turns) && typeof (value as { ended_by?: unknown }).ended_by === 'string',
  { message: 'a transcript has turns and ended_by' },
);

const AttemptSchema = z.looseObject({
  attempt: z.number().int().min(1),
  status: StatusSchema,
  reason: z.string(),
  metrics: z.array(MetricSchema),
  cost: CostSchema,
  error: ErrorSchema.optional(),
  transcript: TranscriptSchema.optional(),
});

const ResultSchema = z.looseObject({
  scenario_id: z.string().min(1),
  title: z.string().optional(),
  file: z.string().optional(),
  agent: z.string(),
  gate: GateSchema,
  tags: z.array(z.string()),
  language: z.string().optional(),
  vars: z.record(z.string(), z.string()).optional(),
  status: StatusSchema,
  reason: z.string(),
  metadata_only: z.boolean(),
  metrics: z.array(MetricSchema),
  cost: CostSchema,
  calls: z.array(CallSchema).optional(),
  error: ErrorSchema.optional(),
  transcript: TranscriptSchema.optional(),
  attempts: z.array(AttemptSchema).optional(),
  flaky_mark: z.looseObject({ marked_at: z.string(), run_id: z.string(), note: z.string().optional() }).optional(),
});

const WarningSchema = z.looseObject({ kind: z.string(), message: z.string(), fails_under_strict: z.boolean() });

const SelectionSchema = z.looseObject({
  total: z.number().int().min(0),
  selected: z.number().int().min(0),
  shard: z.looseObject({ index: z.number().int().min(1), total: z.number().int().min(1) }).optional(),
  shards: z.number().int().min(1).optional(),
  changed_since: z
    .looseObject({ ref: z.string(), changed_files: z.number().int().min(0), affecting: z.array(z.string()), smoke: z.boolean() })
    .optional(),
});

const BaselineSchema = z.looseObject({
  file: z.string(),
  suite: z.string(),
  parley_version: z.string(),
  created_at: z.string(),
  config_fingerprint: z.string(),
  fingerprint_matches: z.boolean(),
  compared: z.number().int().min(0),
  regressions: z.number().int().min(0),
  below_floor: z.number().int().min(0),
  missing: z.number().int().min(0),
  improvements: z.number().int().min(0),
});

export const ReportFileSchema: z.ZodType<RunReport> = z.looseObject({
  schema_version: z.literal(REPORT_SCHEMA_VERSION),
  run_id: z.string().min(1),
  suite: z.string().min(1),
  parley_version: z.string(),
  mode: z.enum(['replay', 'live', 'record']),
  status: RunStatusSchema,
  exit_code: z.number().int(),
  strict: z.boolean(),
  interruption: z
    .looseObject({ signal: z.enum(['SIGINT', 'SIGTERM']), ran: z.number().int().min(0), planned: z.number().int().min(0), resume: z.string() })
    .optional(),
  started_at: z.string(),
  finished_at: z.string(),
  duration_ms: z.number().min(0),
  git_sha: z.string().nullable(),
  config_fingerprint: z.string().nullable(),
  cost_usd: z.number().nullable(),
  cost: CostSchema,
  budget: z
    .looseObject({
      limit_usd: z.number(),
      exhausted: z.boolean(),
      downgrades: z.array(z.string()),
      unchecked_blocking: z.number().int().min(0).optional(),
      split: z.object({ total_usd: z.number(), shards: z.number().int() }).optional(),
      shared: z.object({ key: z.string(), spent_usd: z.number() }).optional(),
      spent_usd: z.number().optional(),
      rerun: z.string().optional(),
      estimate: z.object({ scenarios: z.number().int().min(0), estimated_usd: z.number(), actual_usd: z.number() }).optional(),
    })
    .optional(),
  repeat: z.number().int().min(2).optional(),
  selection: SelectionSchema.optional(),
  baseline: BaselineSchema.optional(),
  warnings: z.array(WarningSchema).optional(),
  merged_from: z.array(z.looseObject({ run_id: z.string(), shard: z.string().optional() })).optional(),
  judge: z
    .looseObject({
      primary: z.string(),
      mode: z.enum(['live', 'replay']),
      verdicts: z.number().int().min(0),
      errors: z.number().int().min(0),
      not_asked: z.looseObject({ budget: z.number().int().min(0), interrupted: z.number().int().min(0) }).optional(),
      votes_on_fail: z.number().int().min(1).optional(),
      re_asked: z.number().int().min(0).optional(),
      panel: z.array(z.string()).optional(),
      resumed_part: z.literal(true).optional(),
      cache: z.looseObject({ read: z.boolean(), written: z.boolean(), cleared: z.boolean(), hits: z.number(), misses: z.number(), saved_usd: z.number().nullable() }),
      cross_check: z
        .looseObject({
          model: z.string(),
          sample: z.number(),
          seed: z.number(),
          sampled: z.array(z.string()),
          checked: z.array(z.string()),
          agreement: z.array(
            z.looseObject({ metric: z.string(), compared: z.number(), agreed: z.number(), rate: z.number().nullable(), mean_abs_score_difference: z.number().nullable() }),
          ),
          kappa: z
            .looseObject({
              pairs: z.number().int().min(0),
              pass_fail: z.number().nullable(),
              weighted: z.number().nullable(),
              trend: z.array(z.looseObject({ run_id: z.string(), kappa: z.number() })),
            })
            .optional(),
          downgrade: z
            .looseObject({ reason: z.literal('budget'), spent_usd: z.number(), limit_usd: z.number(), not_checked: z.array(z.string()), message: z.string() })
            .optional(),
        })
        .optional(),
    })
    .optional(),
  comparison: z
    .looseObject({
      agents: z.array(z.string()).min(1),
      per_agent: z.array(
        z.looseObject({
          agent: z.string(),
          cases: z.number().int().min(0),
          counts: z.record(StatusSchema, z.number().int().min(0)),
          cost: CostSchema,
          mean_latency_ms: z.number().nullable(),
          p95_latency_ms: z.number().nullable(),
        }),
      ),
      scores: z.array(z.looseObject({ scenario_id: z.string(), metric: z.string(), scores: z.record(z.string(), z.number().nullable()) })),
      tests: z.array(
        z.looseObject({
          metric: z.string(),
          agent: z.string(),
          against: z.string(),
          pairs: z.number().int().min(0),
          agent_mean: z.number(),
          against_mean: z.number(),
          mean_delta: z.number(),
          p_value: z.number(),
          interval: z.looseObject({ low: z.number(), high: z.number() }),
          winner: z.string().nullable(),
        }),
      ),
      statistics_note: z.string(),
    })
    .optional(),
  counts: z.record(StatusSchema, z.number().int().min(0)),
  results: z.array(ResultSchema),
});
