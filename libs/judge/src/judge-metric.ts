import type { MetricInput } from '@parley/metrics';
import type { z } from 'zod';

/**
 * What one judge call is asked: instructions, the conversation as text, the JSON schema the answer
 * must follow, and how to read that answer. Everything that reaches the model is in `system` and
 * `user`, so a test can check that nothing else (the agent's model name, session ids) leaks in.
 */
export interface JudgeTask<Verdict = JudgeVerdict> {
  system: string;
  user: string;
  schema: { name: string; schema: Record<string, unknown> };
  /**
   * Turns the parsed JSON answer into a verdict, or says in one sentence why it is unusable
   * (that sentence is sent back to the judge on its one retry, and kept in the error).
   */
  read(answer: unknown): { ok: true; verdict: Verdict } | { ok: false; problem: string };
}

/** What a judge concluded about one transcript, before a threshold turns it into pass or fail. */
export interface JudgeVerdict {
  /** Normalised to [0, 1]. */
  score: number;
  /** Ids of `required` criteria the judge found unmet: they fail the metric whatever the score. */
  unmet_required: string[];
  /** The judge's own summary (overall feedback), for the metric's reason. */
  summary: string;
  /** Per-message scores and reasons, criteria, feedback: kept in the metric's details. */
  details: Record<string, unknown>;
}

/**
 * An LLM-judged metric (docs/file-formats.md, "Judge metrics"). Unlike the deterministic metrics of
 * @parley/metrics it does not evaluate itself: it says what to ask (`task`), and the judging
 * machinery (judge-expectation.ts) asks the model through the run's provider stack, retries
 * unusable output once, re-asks failing verdicts for a majority, caches, and cross-checks. That
 * keeps each metric a pure function from transcript to question and from answer to verdict,
 * testable without a model.
 */
export interface JudgeMetric<Params = unknown> {
  name: string;
  /** Semver; bump whenever the instructions or the rubric change (caches and baselines key on it). */
  version: string;
  kind: 'judge';
  /** The built-in `fluency_<language>` this suite metric judges instead (rubric metrics' `replaces`). */
  replaces?: string;
  /** Strict schema of the expectation's own parameters (e.g. conversation_judge's `criteria`). */
  params: z.ZodType<Params>;
  defaultThreshold: number;
  /**
   * The question for this transcript, or a verdict straight away when there is nothing a judge
   * could look at (a conversation without assistant messages scores 0 without a call).
   */
  task(input: MetricInput, params: Params): JudgeTask | { verdict: JudgeVerdict };
}
