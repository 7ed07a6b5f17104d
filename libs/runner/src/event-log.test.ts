import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent, ScenarioResult } from '@parley/core';
import { createRedactor } from '@parley/redaction';
import { redactResultContent } from '@parley/reports';
import { describe, expect, it } from 'vitest';
import { openEventLog } from './event-log.js';

const RUN = 'run-1';

function result(overrides: Partial<ScenarioResult>): ScenarioResult {
  return {
    scenario_id: 'spa',
    agent: 'booking',
    gate: 'blocking',
    tags: [],
    metadata_only: false,
    status: 'fail',
    reason: 'forbidden "0722 118 904" found',
    metrics: [],
    cost: { input_tokens: 1, output_tokens: 1, usd: 0, calls: 1 },
    transcript: {
      ended_by: 'script',
      turns: [
        { role: 'user', turn: 1, content: "I'm Grace Achieng, 0722 118 904" },
        { role: 'assistant', turn: 1, content: '', tool_calls: [{ id: 'c', name: 'create_booking', args: { customer_name: 'Grace Achieng' } }] },
      ],
    },
    ...overrides,
  };
}

function logOf(events: RunEvent[], isMetadataOnly: (id: string) => boolean = () => false): string {
  const path = join(mkdtempSync(join(tmpdir(), 'parley-events-')), 'events.jsonl');
  const log = openEventLog(path, isMetadataOnly, createRedactor({ names: ['Wanjiku'] }));
  for (const event of events) log.listener(event);
  log.close();
  return readFileSync(path, 'utf8');
}

describe('openEventLog', () => {
  it('masks turns as they stream, learning names from tool calls for the rest of the scenario', () => {
    const text = logOf([
      { type: 'turn_completed', run_id: RUN, scenario_id: 'spa', turn: { role: 'user', turn: 1, content: 'Wanjiku here, 0722 118 904' } },
      {
        type: 'turn_completed',
        run_id: RUN,
        scenario_id: 'spa',
        turn: { role: 'assistant', turn: 1, content: '', tool_calls: [{ id: 'c', name: 'create_booking', args: { customer_name: 'Grace Achieng' } }] },
      },
      { type: 'turn_completed', run_id: RUN, scenario_id: 'spa', turn: { role: 'assistant', turn: 1, content: 'Asante Grace, BK-77 for KES 150000' } },
      { type: 'turn_completed', run_id: RUN, scenario_id: 'other', turn: { role: 'assistant', turn: 1, content: 'Grace is a virtue' } },
      { type: 'scenario_finished', run_id: RUN, result: result({}) },
    ]);
    const lines = text.trim().split('\n').map((line) => JSON.parse(line) as RunEvent);
    const contents = lines.flatMap((event) => (event.type === 'turn_completed' ? [event.turn.content] : []));
    expect(contents).toEqual(['<name> here, 07** *** 904', '', 'Asante <name>, BK-77 for KES 150000', 'Grace is a virtue']);
    expect(text).not.toMatch(/Achieng|118 904/);
    // The finished event carries the verdict, not a second copy of the streamed conversation.
    const finished = lines.at(-1);
    expect(finished?.type).toBe('scenario_finished');
    expect(finished?.type === 'scenario_finished' && finished.result.transcript).toBeUndefined();
  });

  it('masks a name a user introduces ("nginguThandiwe") in the later turns of the same scenario', () => {
    const text = logOf([
      { type: 'turn_completed', run_id: RUN, scenario_id: 'water', turn: { role: 'user', turn: 1, content: 'Sawubona, nginguThandiwe. Amanzi awekho.' } },
      { type: 'turn_completed', run_id: RUN, scenario_id: 'water', turn: { role: 'assistant', turn: 1, content: 'Ngiyaxolisa Thandiwe, sizokusiza.' } },
      { type: 'scenario_finished', run_id: RUN, result: result({}) },
    ]);
    const contents = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent)
      .flatMap((event) => (event.type === 'turn_completed' ? [event.turn.content] : []));
    expect(contents).toEqual(['Sawubona, ngingu<name>. Amanzi awekho.', 'Ngiyaxolisa <name>, sizokusiza.']);
  });

  it("masks in the finished result's reasons the names its conversation revealed (a judge quotes them)", () => {
    const text = logOf([
      {
        type: 'scenario_finished',
        run_id: RUN,
        result: result({ reason: 'conversation_judge: greets Grace Achieng warmly', metrics: [{ metric: 'conversation_judge', version: '1.0.0', score: 0.9, threshold: 0.7, passed: true, reason: 'Achieng is greeted by name', details: { overall_feedback: 'Grace is addressed formally.' } }] }),
      },
    ]);
    expect(text).toContain('conversation_judge: greets <name> warmly');
    expect(text).not.toMatch(/Grace|Achieng/);
  });

  it('withholds metadata_only content and still redacts what is left', () => {
    const text = logOf(
      [
        { type: 'turn_completed', run_id: RUN, scenario_id: 'spa', turn: { role: 'user', turn: 1, content: 'My husband hurts me' } },
        { type: 'scenario_finished', run_id: RUN, result: result({ metadata_only: true }) },
      ],
      () => true,
    );
    expect(text).not.toMatch(/husband|Grace|118 904/);
    expect(text).toContain('[metadata_only: content withheld]');
  });

  it("writes the run's already redacted copy of a finished result exactly as it would redact the result itself", () => {
    const redactor = createRedactor({ names: ['Wanjiku'] });
    const finished = result({ metrics: [{ metric: 'regex', version: '1', score: null, threshold: null, passed: false, reason: 'saw 0722 118 904', details: { customer_name: 'Grace' } }] });
    const write = (options: Parameters<typeof openEventLog>[3]): string => {
      const path = join(mkdtempSync(join(tmpdir(), 'parley-events-')), 'events.jsonl');
      const log = openEventLog(path, () => false, redactor, options);
      log.listener({ type: 'scenario_finished', run_id: RUN, result: finished });
      log.close();
      return readFileSync(path, 'utf8');
    };
    const own = write({});
    let asked = 0;
    const shared = write({
      redactedResult: (raw) => {
        asked += 1;
        return raw === finished ? { ...redactResultContent({ ...finished, attempts: [finished] }, redactor) } : undefined;
      },
    });
    expect(asked).toBe(1);
    expect(shared).toBe(own);
    expect(shared).toContain('07** *** 904');
    expect(shared).not.toMatch(/118 904|Grace|attempts/);
  });
});
