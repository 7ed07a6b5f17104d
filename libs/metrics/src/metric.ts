import type { z } from 'zod';
import type { MetricResult, Transcript } from '@parley/core';

/** What a metric looks at: the conversation, and the scenario it came from. */
export interface MetricInput {
  transcript: Transcript;
  scenario: { id: string; language?: string };
}

/**
 * One deterministic metric (docs/file-formats.md, "Expectations and the deterministic metrics").
 * Metrics are pure (no I/O, no clock), so the same transcript always gets the same result and
 * results can be cached and compared across runs.
 */
export interface Metric<Params> {
  name: string;
  /** Semver; bump when the semantics change, so baselines and caches never mix two meanings. */
  version: string;
  kind: 'deterministic' | 'judge';
  /**
   * Strict zod object schema of the metric's own parameters: every key of an expectation except
   * metric, threshold, gate, thresholding. Unknown keys are rejected, so a typo is an error.
   */
  params: z.ZodType<Params>;
  /** Threshold used when the expectation gives none; null = a pass/fail metric (score null). */
  defaultThreshold: number | null;
  /** Never throws on a transcript: unusable input gives a failed result with `error: true`. */
  evaluate(input: MetricInput, params: Params, threshold: number | null): MetricResult;
}

/** The part of a metric every result names. */
export interface MetricIdentity {
  name: string;
  version: string;
}
