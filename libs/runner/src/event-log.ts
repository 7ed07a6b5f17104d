import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendAllSync, type RunEvent, type RunListener, type ScenarioResult } from '@parley/core';
import { floorRedactor, type Redactor } from '@parley/redaction';
import { redactResultContent } from '@parley/reports';

export interface EventLog {
  listener: RunListener;
  /** The error that stopped the log (a full disk), if one did: the run reports it when it ends. */
  readonly failure: unknown;
  close(): void;
}

export interface EventLogOptions {
  /**
   * The finished result already passed through `redactResultContent` with the same redactor (the
   * run redacts each result once, for its report), or undefined: the log then redacts it itself.
   */
  redactedResult?: (result: ScenarioResult) => ScenarioResult | undefined;
}

/**
 * `.parley/runs/<run_id>/events.jsonl`: one JSON line per run event, written as it happens, so a
 * crashed or interrupted run still leaves its story behind. Conversation content of
 * `metadata_only` scenarios is withheld here as in every other output; all other content goes
 * through the redactor (the suite's, else the floor's), as in the reports.
 */
export function openEventLog(
  path: string,
  isMetadataOnly: (scenarioId: string) => boolean,
  redactor: Redactor = floorRedactor(),
  options: EventLogOptions = {},
): EventLog {
  mkdirSync(dirname(path), { recursive: true });
  const descriptor = openSync(path, 'a');
  let open = true;
  const redact = streamingRedaction(redactor, options.redactedResult);
  // Lines are buffered and written when a scenario or the run starts or finishes: one write per
  // scenario instead of one per turn, and a crash loses at most the turns of unfinished scenarios.
  let pending = '';
  // A failed append is cut back to the last whole line (appendAllSync) and stops the log: a run
  // that cannot log goes on to finish its scenarios, and reports the failure when it ends.
  let failure: unknown;
  const flush = (): void => {
    if (pending === '' || failure !== undefined) return;
    try {
      appendAllSync(descriptor, path, pending);
    } catch (error) {
      failure = error;
    }
    pending = '';
  };
  return {
    get failure() {
      return failure;
    },
    listener(event) {
      if (!open || failure !== undefined) return;
      pending += `${JSON.stringify(redact(withoutContent(event, isMetadataOnly)))}\n`;
      if (event.type !== 'turn_completed') flush();
    },
    close() {
      if (!open) return;
      open = false;
      flush();
      closeSync(descriptor);
    },
  };
}

const WITHHELD = '[metadata_only: content withheld]';

/**
 * Redacts events as they stream. A turn is written before the rest of its conversation exists,
 * so each scenario's redactor learns the names of structured fields (a `customer_name` in a tool
 * call) and the names a message introduces as they appear and masks them from then on; the finished result masks them everywhere.
 */
function streamingRedaction(redactor: Redactor, redactedResult: EventLogOptions['redactedResult']): (event: RunEvent) => RunEvent {
  const byScenario = new Map<string, Redactor>();
  return (event) => {
    if (event.type === 'turn_completed') {
      const { turn } = event;
      // The content too: a name a user introduces ("nginguThandiwe") is masked in the replies after it.
      const learned = [...(turn.tool_calls ?? []).flatMap((call) => redactor.namesIn(call.args)), ...redactor.namesIn(turn.content)];
      const scoped = (byScenario.get(event.scenario_id) ?? redactor).withNames(learned);
      byScenario.set(event.scenario_id, scoped);
      return { ...event, turn: scoped.turn(turn) };
    }
    if (event.type === 'scenario_finished') {
      byScenario.delete(event.result.scenario_id);
      const shared = redactedResult?.(event.result);
      if (shared !== undefined) {
        // The same text as redacting here: the run's copy minus the transcript (and --repeat's attempts).
        const { transcript: _transcript, attempts: _attempts, ...result } = shared as ScenarioResult & { attempts?: unknown };
        return { ...event, result };
      }
      // The turns were logged one by one as they happened; the finished result carries the
      // verdict, not a second copy of the conversation (report.json has the whole transcript). It is
      // redacted knowing its transcript's names, which a judge's reason may quote.
      const { transcript, ...result } = event.result;
      return { ...event, result: redactResultContent(result, transcript === undefined ? redactor : redactor.forTranscript(transcript)) };
    }
    return event;
  };
}

function withoutContent(event: RunEvent, isMetadataOnly: (scenarioId: string) => boolean): RunEvent {
  if (event.type === 'turn_completed' && isMetadataOnly(event.scenario_id)) {
    const { tool_calls: _toolCalls, ...turn } = event.turn;
    return { ...event, turn: { ...turn, content: WITHHELD } };
  }
  if (event.type === 'scenario_finished' && event.result.metadata_only) {
    const { transcript: _transcript, session: _session, ...result } = event.result;
    return {
      ...event,
      result: {
        ...result,
        reason: WITHHELD,
        metrics: result.metrics.map(({ details: _details, ...metric }) => ({ ...metric, reason: WITHHELD })),
        ...(result.error ? { error: { kind: result.error.kind, message: WITHHELD } } : {}),
      },
    };
  }
  return event;
}
