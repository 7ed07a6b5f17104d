/**
 * Every request the fake received, in arrival order: what tests assert on ("the agent sent the
 * tool result", "the judge was asked twice") and, with a log file, what a person reads afterwards.
 */
import { appendFileSync } from 'node:fs';
import type { FaultKind } from './script-schema.js';
import type { RuleReference } from './scripted-responder.js';

type LoggedApi = 'openai' | 'openai-responses' | 'anthropic' | 'control';

export interface LoggedRequest {
  /** 1-based arrival number; also the number in the ids of the answer (`chatcmpl-fake-000003`). */
  seq: number;
  /** ISO time of arrival. */
  at: string;
  api: LoggedApi;
  method: string;
  path: string;
  /** `model` of the request body, null when there is none. */
  model: string | null;
  /** Lower-case names; credentials replaced by "[redacted]". */
  headers: Record<string, string>;
  /** Parsed JSON, the raw text when it is not JSON, null when empty. */
  body: unknown;
  /** Name or index of the rule that answered; null for the fallback, no match, or control calls. */
  rule: RuleReference;
  /** HTTP status sent; null while pending and for faults that send none (hang, reset). */
  status: number | null;
  /** The scripted fault applied to this request, if any. */
  fault: FaultKind | null;
}

export class RequestLog {
  /** Kept as one array (cleared in place) so a reference taken before a reset stays current. */
  readonly entries: LoggedRequest[] = [];
  private nextSeq = 1;

  constructor(private readonly logFile?: string) {
    // Fail at start, not on the first request, when the log file cannot be written.
    if (logFile) appendFileSync(logFile, '');
  }

  add(entry: Omit<LoggedRequest, 'seq'>): LoggedRequest {
    const logged = { seq: this.nextSeq, ...entry };
    this.nextSeq += 1;
    this.entries.push(logged);
    return logged;
  }

  /** Records the outcome and appends the finished entry to the log file. */
  settle(entry: LoggedRequest, outcome: Pick<LoggedRequest, 'status' | 'rule' | 'fault'>): void {
    Object.assign(entry, outcome);
    if (this.logFile) appendFileSync(this.logFile, `${JSON.stringify(entry)}\n`);
  }

  /** Empties the log; numbering starts again at 1. The log file keeps its lines. */
  clear(): void {
    this.entries.length = 0;
    this.nextSeq = 1;
  }
}
