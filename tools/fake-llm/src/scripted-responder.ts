/**
 * The script's state machine: which rule answers a request, and with which reply or fault.
 * Counters live here (not in the rules) so that a reset or a new script starts every `times`,
 * `fault.times` and `replies` sequence from the beginning.
 */
import { ruleMatches } from './match-rule.js';
import type { NormalisedRequest } from './normalise-request.js';
import { isRegexPattern } from './text-pattern.js';
import type { FakeScript, Fault, Rule, ScriptedReply } from './script-schema.js';

/** How a rule is named in the log: its `name`, else its index in `rules`; null for no rule. */
export type RuleReference = string | number | null;

export type Outcome =
  | { kind: 'reply'; rule: RuleReference; reply: ScriptedReply; latencyMs: number }
  | { kind: 'fault'; rule: RuleReference; fault: Fault; latencyMs: number }
  /** No rule matched and the script has no fallback. */
  | { kind: 'unmatched'; latencyMs: number };

interface RuleCounter {
  /** Times the rule was chosen (what `times` limits). */
  chosen: number;
  faulted: number;
  replied: number;
}

export class ScriptedResponder {
  private script: FakeScript;
  private counters: RuleCounter[] = [];

  constructor(script: FakeScript) {
    this.script = script;
    this.resetCounters();
  }

  get currentScript(): FakeScript {
    return this.script;
  }

  replaceScript(script: FakeScript): void {
    this.script = script;
    this.resetCounters();
  }

  resetCounters(): void {
    this.counters = (this.script.rules ?? []).map(() => ({ chosen: 0, faulted: 0, replied: 0 }));
  }

  /**
   * Picks the answer to `request` and counts it. Counting happens here, when the request arrives,
   * so concurrent requests take turns in arrival order even when their latencies differ.
   */
  choose(request: NormalisedRequest): Outcome {
    const defaultLatencyMs = this.script.defaults?.latency_ms ?? 0;
    const rules = this.script.rules ?? [];
    for (const [index, rule] of rules.entries()) {
      const counter = this.counters[index];
      if (!counter || !ruleMatches(rule.when, request)) continue;
      if (rule.times !== undefined && counter.chosen >= rule.times) continue;
      counter.chosen += 1;
      const reference = rule.name ?? index;
      const latencyMs = rule.latency_ms ?? defaultLatencyMs;
      const reply = pickReply(rule, counter.replied);
      const faultsLeft = rule.fault !== undefined && (rule.fault.times === undefined || counter.faulted < rule.fault.times);
      if (rule.fault && (faultsLeft || !reply)) {
        counter.faulted += 1;
        return { kind: 'fault', rule: reference, fault: rule.fault, latencyMs };
      }
      if (reply) {
        counter.replied += 1;
        return { kind: 'reply', rule: reference, reply, latencyMs };
      }
    }
    if (this.script.fallback) return { kind: 'reply', rule: null, reply: this.script.fallback, latencyMs: defaultLatencyMs };
    return { kind: 'unmatched', latencyMs: defaultLatencyMs };
  }

  /** Exact model names the script mentions, for `GET /v1/models`. */
  modelNames(): string[] {
    const names = (this.script.rules ?? [])
      .map((rule) => rule.when?.model)
      .filter((model): model is string => model !== undefined && !isRegexPattern(model));
    return [...new Set(names)];
  }
}

/** `reply`, or the next of `replies` (the last one repeats). */
function pickReply(rule: Rule, repliedSoFar: number): ScriptedReply | undefined {
  if (rule.reply) return rule.reply;
  if (!rule.replies) return undefined;
  return rule.replies[Math.min(repliedSoFar, rule.replies.length - 1)];
}
