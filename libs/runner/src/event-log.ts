import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunEvent, RunListener } from '@parley/core';
import { floorRedactor, type Redactor } from '@parley/redaction';
import { redactResultContent } from '@parley/reports';

export interface EventLog {
  listener: RunListener;
  close(): void;
}

/**
 * `.parley/runs/<run_id>/events.jsonl`: one JSON line per run event, written as it happens, so a
 * crashed or interrupted run still leaves its story behind. Conversation content of
 * `metadata_only` scenarios is withheld here as in every other output; all other content goes
 * through the redactor (the suite's, else the floor's), as in the reports.
 */
export function openEventLog(path: string, isMetadataOnly: (scenarioId: string) => boolean, redactor: Redactor = floorRedactor()): EventLog {
  mkdirSync(dirname(path), { recursive: true });
  const descriptor = openSync(path, 'a');
  let open = true;
  return {
    listener(event) {
      if (!open) return;
      writeSync(descriptor, `${JSON.stringify(redacted(withoutContent(event, isMetadataOnly), redactor))}\n`);
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(descriptor);
    },
  };
}

const WITHHELD = '[metadata_only: content withheld]';

function redacted(event: RunEvent, redactor: Redactor): RunEvent {
  if (event.type === 'turn_completed') return { ...event, turn: redactor.turn(event.turn) };
  if (event.type === 'scenario_finished') return { ...event, result: redactResultContent(event.result, redactor) };
  return event;
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
