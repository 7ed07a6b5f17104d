import * as z from 'zod';
import { METRIC_NAME_PATTERN, SEMVER_PATTERN } from './rubric-metric-schema.js';

/** The longest a code metric may take by default before its thread or process is stopped. */
export const DEFAULT_CODE_METRIC_TIMEOUT_MS = 10_000;

const codeMetricFields = {
  name: z.string().regex(METRIC_NAME_PATTERN, 'metric names use lowercase letters, digits and _, starting with a letter'),
  /**
   * Bump it when what the metric checks changes: baselines compare scores of one version. The
   * code file's content hash is kept beside it, so an edit is noticed under the same version too.
   */
  version: z.string().regex(SEMVER_PATTERN, 'use a semantic version such as 1.0.0'),
  description: z.string().trim().min(1).optional(),
  /** Longest wait for the metric's answer; its thread or process is stopped after it. */
  timeout_ms: z.number().int().positive().max(600_000).optional(),
};

/** `kind: module`: a JS/TS file whose default export is a metric made with `defineMetric` from parley-eval. */
export const ModuleMetricSchema = z.strictObject({
  ...codeMetricFields,
  kind: z.literal('module'),
  /** Path of the module, relative to the suite folder. */
  module: z.string().min(1),
});

/** `kind: command`: any program, given one JSON document on stdin and answering one JSON value on stdout. */
export const CommandMetricSchema = z.strictObject({
  ...codeMetricFields,
  kind: z.literal('command'),
  /** The program and its arguments (no shell), e.g. `[python3, metrics/check.py]`. */
  command: z.array(z.string().min(1)).min(1),
  /** Working folder of the program, relative to the suite folder (default: the suite folder). */
  cwd: z.string().min(1).optional(),
});

/** A metric written in code (docs/file-formats.md, "Metrics written in code"). */
export const CodeMetricSchema = z.discriminatedUnion('kind', [ModuleMetricSchema, CommandMetricSchema]);
export type CodeMetricFile = z.infer<typeof CodeMetricSchema>;
