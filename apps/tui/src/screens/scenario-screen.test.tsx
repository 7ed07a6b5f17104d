import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@parley/core';
import { openStore } from '@parley/store';
import { KEYS, press, renderApp, waitForFrame, type Instance } from '../test-support/render-screen.js';
import { bookingTranscript, createTriageStore, judge, overflow, SECRET, type TriageStore } from '../triage/test-support/triage-store.js';

const END = '\u001B[F';
const HOME = '\u001B[H';

describe('ScenarioScreen', () => {
  let history: TriageStore;
  beforeEach(() => {
    history = createTriageStore();
  });
  afterEach(() => history.remove());

  const open = (scenarioId: string, runId = 'run-b'): Instance =>
    renderApp({ screen: 'scenario', runId, scenarioId }, { services: { storePath: history.storePath } });

  const lineIndex = (frame: string, text: string): number => frame.split('\n').findIndex((line) => line.includes(text));

  it('opens on the metric table against the baseline, failures first, each with its reason', async () => {
    const rendered = open('b_missing_booking_number');
    const frame = await waitForFrame(rendered, (text) => text.includes('verdict'));
    expect(frame).toContain('fail · blocking · agent booking · sw');
    expect(frame).toContain('content_signals: required "BK-9999" not found in the assistant messages');
    expect(frame).toMatch(/metric\s+score\s+base\s+delta\s+thresh\s+drop\s+verdict/);
    expect(frame).toMatch(/^content_signals\s+-\s+-\s+-\s+-\s+-\s+FAIL$/m);
    expect(frame).toMatch(/^conversation_judge\s+0\.85\s+0\.92\s+-0\.07\s+0\.7\s+0\.05\s+FAIL regressed$/m);
    expect(frame).toMatch(/^tool_correctness\s+1\s+1\s+0\s+0\.8\s+0\.05\s+PASS$/m);
    expect(frame).toMatch(/^ {4}required "BK-9999" not found in 3 assistant messages$/m);
    expect(frame).toMatch(/^ {4}regressed against the baseline: baseline 0\.92, current 0\.85, delta -0\.07$/m);
    // The failing rows come before the passing one, whatever the order of the expectations.
    expect(lineIndex(frame, 'conversation_judge  ')).toBeLessThan(lineIndex(frame, 'tool_correctness  '));
    expect(frame).toMatch(/t\s+transcript\s+m\s+metrics\s+↑↓\s+scroll/);
    expect(frame).not.toMatch(/r\s+reveal/);
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
  });

  it('t shows the transcript in a chat layout with each message’s judge score and reason under it', async () => {
    const rendered = open('b_missing_booking_number');
    await waitForFrame(rendered, (text) => text.includes('verdict'));
    await press(rendered, 't');
    const frame = await waitForFrame(rendered, (text) => text.includes('user · turn 1'));
    expect(frame).toContain('  Habari! Nataka massage Jumamosi asubuhi.');
    expect(frame).toContain('  → check_availability {"day":"saturday"}');
    expect(frame).toContain('tool check_availability · mocked');
    expect(frame).toContain('  {"slots":["10:00","14:00"]}');
    const message = lineIndex(frame, 'Karibu! Tuna nafasi saa 10:00');
    const reason = lineIndex(frame, '▸ 80/100 conversation_judge: Quotes the price, a little curt.');
    expect(reason).toBe(message + 1);
    expect(frame).not.toContain('verdict');
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });

    // The second assistant message and its reason are further down: ↓ and End scroll to them.
    expect(frame).not.toContain('Confirms the slot');
    await press(rendered, END);
    const end = await waitForFrame(rendered, (text) => text.includes('ended by script'));
    expect(lineIndex(end, '▸ 90/100 conversation_judge: Confirms the slot and the booking number.')).toBe(lineIndex(end, 'Namba ya booking ni BK-1042') + 1);
    expect(end).toContain('assistant · turn 2 · state booked');
    expect(end).not.toContain('Habari! Nataka');
    // The failure that points at no message (the required string) is said above the transcript.
    await press(rendered, HOME, KEYS.down, KEYS.down, KEYS.down);
    const one = await waitForFrame(rendered, (text) => text.includes('4-19/23'));
    expect(one).not.toContain('user · turn 1');
    expect(one.split('\n')[6]).toBe('  Habari! Nataka massage Jumamosi asubuhi.');
    await press(rendered, 'm');
    expect(await waitForFrame(rendered, (text) => text.includes('verdict'))).not.toContain('user · turn 1');
    await press(rendered, KEYS.tab);
    expect(await waitForFrame(rendered, (text) => text.includes('assistant · turn 1'))).not.toContain('verdict');
  });

  it('wraps long messages within 80 columns and cuts long tool answers', async () => {
    const long = 'Karibu sana! '.repeat(30).trim();
    const transcript = bookingTranscript();
    transcript.turns[2] = { ...transcript.turns[2]!, content: Array.from({ length: 12 }, (_, index) => `line ${index}`).join('\n') };
    transcript.turns[3] = { ...transcript.turns[3]!, content: long };
    const store = openStore(history.storePath);
    const result: ScenarioResult = {
      scenario_id: 'long_reply',
      agent: 'booking',
      gate: 'advisory',
      tags: [],
      metadata_only: false,
      status: 'pass',
      reason: 'fine',
      metrics: [judge(0.9, [[3, 90, 'A long but warm welcome. '.repeat(6).trim()]])],
      transcript,
      cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 },
    };
    store.saveScenarioResult('run-b', result);
    store.close();
    const rendered = open('long_reply');
    await waitForFrame(rendered, (text) => text.includes('verdict'));
    await press(rendered, 't');
    const frame = await waitForFrame(rendered, (text) => text.includes('line 2'));
    expect(frame).not.toContain('line 3');
    expect(frame).toContain('… 9 more lines');
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
    await press(rendered, KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.down);
    const scrolled = await waitForFrame(rendered, (text) => text.includes('▸ 90/100'));
    expect(scrolled.split('\n').filter((line) => line.startsWith('  Karibu sana!')).length).toBeGreaterThan(2);
    expect(overflow(scrolled)).toEqual({ wide: [], rows: 0 });
  });

  it('shows no content of a metadata_only scenario until r and y reveal it on this screen', async () => {
    const rendered = open('f_private');
    const metrics = await waitForFrame(rendered, (text) => text.includes('verdict'));
    expect(metrics).toContain('metadata_only');
    expect(metrics).toMatch(/^conversation_judge\s+0\.2\s+-\s+-\s+0\.7\s+-\s+FAIL$/m);
    expect(metrics).toContain('conversation_judge: [metadata_only: content withheld]');
    expect(metrics).toMatch(/r\s+reveal/);
    expect(metrics).not.toContain(SECRET);

    await press(rendered, 't');
    const hidden = await waitForFrame(rendered, (text) => text.includes('its conversation is not shown'));
    expect(hidden).not.toContain(SECRET);
    expect(hidden).not.toContain('My PIN');
    expect(hidden).not.toContain('▸');
    expect(overflow(hidden)).toEqual({ wide: [], rows: 0 });

    // r asks first; any other key than y cancels.
    await press(rendered, 'r');
    expect(await waitForFrame(rendered, (text) => text.includes('Reveal this metadata_only conversation here? y reveals'))).not.toContain(SECRET);
    await press(rendered, 'n');
    const cancelled = await waitForFrame(rendered, (text) => !text.includes('Reveal this metadata_only'));
    expect(cancelled).toContain('its conversation is not shown');
    expect(cancelled).not.toContain(SECRET);

    await press(rendered, 'r', 'y');
    const revealed = await waitForFrame(rendered, (text) => text.includes('My PIN'));
    expect(revealed).toContain('metadata_only (revealed)');
    expect(revealed).toContain(`▸ 20/100 conversation_judge: Repeats ${SECRET} back to the customer.`);
    expect(revealed).toContain(`conversation_judge: the agent repeated ${SECRET}`);
    expect(revealed).not.toMatch(/r\s+reveal/);
    expect(overflow(revealed)).toEqual({ wide: [], rows: 0 });
    await press(rendered, 'm');
    expect(await waitForFrame(rendered, (text) => text.includes('verdict'))).toContain(`conversation_judge 0.2 — repeats ${SECRET}`);

    // A reveal belongs to that screen: opening the scenario again hides it again.
    const again = open('f_private');
    expect(await waitForFrame(again, (text) => text.includes('verdict'))).not.toContain(SECRET);
  });

  it('marks the messages behind failing checks and low scores in the transcript; n and N jump between them', async () => {
    // Long user messages around the marked ones, so each can scroll to the top of the window.
    const long = bookingTranscript();
    const filler = Array.from({ length: 30 }, (_, index) => `line ${index}`).join('\n');
    long.turns[0] = { ...long.turns[0]!, content: filler };
    long.turns[4] = { ...long.turns[4]!, content: filler };
    const store = openStore(history.storePath);
    store.saveScenarioResult('run-b', {
      scenario_id: 'pointed',
      agent: 'booking',
      gate: 'blocking',
      tags: [],
      metadata_only: false,
      status: 'fail',
      reason: 'content_signals: forbidden "BK-1042" found in assistant message 2 (turn 2)',
      metrics: [
        { metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: false, reason: 'forbidden', details: { missing: [], found_forbidden: [{ signal: 'KES 3,500', message_index: 3 }] } },
        { metric: 'state_path', version: '1.0.0', score: null, threshold: null, passed: false, reason: 'state "paid" never reached', details: { first_missing: 'paid' } },
        judge(0.75, [[1, 40, 'Checks a day the customer did not ask for.'], [5, 90, 'Confirms the slot.']]),
      ],
      transcript: long,
      cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 },
    });
    store.close();
    const rendered = open('pointed');
    await waitForFrame(rendered, (text) => text.includes('verdict'));
    // From the metric table, n opens the transcript at the first marked message.
    await press(rendered, 'n');
    const first = await waitForFrame(rendered, (text) => text.includes('2 marked'));
    const lines = first.split('\n');
    const top = lines.findIndex((line) => line.includes('! assistant · turn 1'));
    expect(top).toBe(6); // the first line of the scrolled window
    expect(lines[top + 1]).toBe('  ! low score conversation_judge: 40/100');
    expect(first).toMatch(/n N\s+next\/prev failure/);
    expect(overflow(first)).toEqual({ wide: [], rows: 0 });

    await press(rendered, 'n');
    const second = await waitForFrame(rendered, (text) => text.split('\n')[6]?.includes('✗ assistant · turn 1') ?? false);
    expect(second.split('\n')[7]).toBe('  ✗ failed content_signals: forbidden "KES 3,500"');
    await press(rendered, 'N');
    await waitForFrame(rendered, (text) => text.split('\n')[6]?.includes('! assistant · turn 1') ?? false);
    // The failure that points at no message is said at the top of the transcript.
    await press(rendered, HOME);
    expect(await waitForFrame(rendered, (text) => text.includes('in no single message'))).toContain('✗ failed, in no single message: state_path (m shows why)');
  });

  it('shows a metadata_only scenario’s expectations from its file, never its conversation', async () => {
    const suite = join(history.folder, 'suite');
    mkdirSync(join(suite, 'scenarios'), { recursive: true });
    writeFileSync(join(suite, 'parley.yaml'), 'suite: triage\nagents:\n  booking: { kind: openai, model: gpt-4.1-mini }\n');
    writeFileSync(join(suite, 'scenarios', 'f_private.yaml'), 'id: f_private\nagent: booking\nmetadata_only: true\nuser: { opening: "hi" }\nexpect:\n  # never the PIN\n  - { metric: conversation_judge, threshold: 0.7 }\n');
    const rendered = renderApp({ screen: 'scenario', runId: 'run-b', scenarioId: 'f_private' }, { services: { storePath: history.storePath, suitePath: suite, cwd: suite } });
    await waitForFrame(rendered, (text) => text.includes('verdict'));
    await press(rendered, 't');
    const frame = await waitForFrame(rendered, (text) => text.includes('What it expects'));
    expect(frame).toContain('What it expects (scenarios/f_private.yaml):');
    expect(frame).toContain('  expect:');
    expect(frame).toContain('    # never the PIN');
    expect(frame).toContain('    - { metric: conversation_judge, threshold: 0.7 }');
    expect(frame).not.toContain(SECRET);
    expect(frame).not.toContain('My PIN');
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
  });

  it('shows why a scenario could not be evaluated, and a missing baseline entry as a warning', async () => {
    const error = open('c_recording_miss');
    const errorFrame = await waitForFrame(error, (text) => text.includes('error recording_miss'));
    expect(errorFrame).toContain('  no recorded call matches turn 2');
    expect(errorFrame).toContain('  + "temperature": 0.2');
    expect(errorFrame).toContain('No metric was evaluated.');
    await press(error, 't');
    expect(await waitForFrame(error, (text) => text.includes('No transcript was stored'))).toBeTruthy();

    const warn = open('e_no_baseline');
    const warnFrame = await waitForFrame(warn, (text) => text.includes('verdict'));
    expect(warnFrame).toMatch(/^tool_correctness\s+0\.9\s+none\s+-\s+0\.8\s+-\s+WARN$/m);
    expect(warnFrame).toContain('create it with: parley run . --export-baseline b.json');
  });

  it('? lists the triage keys: n N for the marked messages and R for a re-run', async () => {
    const rendered = open('b_missing_booking_number');
    await waitForFrame(rendered, (text) => text.includes('verdict'));
    await press(rendered, '?');
    const keys = await waitForFrame(rendered, (text) => text.includes('Keys · Scenario'));
    expect(keys).toMatch(/n N\s+the next \/ previous message a failure points at/);
    expect(keys).toMatch(/R\s+re-run/);
    expect(overflow(keys)).toEqual({ wide: [], rows: 0 });
  });

  it('while the flaky note is typed, the footer shows only the keys that act (t and m are text there)', async () => {
    const rendered = open('b_missing_booking_number');
    await waitForFrame(rendered, (text) => text.includes('verdict'));
    await press(rendered, 'f');
    await waitForFrame(rendered, (text) => text.includes('Why flaky (optional)'));
    await press(rendered, 't', 'm');
    const frame = await waitForFrame(rendered, (text) => text.includes('Why flaky (optional): tm█'));
    const footer = frame.split('\n').slice(-2).join('\n');
    expect(footer).toMatch(/Enter\s+mark flaky\s+Esc\s+cancel/);
    for (const key of [/t\s+transcript/, /m\s+metrics/, /↑↓\s+scroll/]) expect(footer).not.toMatch(key);
    // The screen stayed on the metric table: the letters went into the note.
    expect(frame).toMatch(/metric\s+score\s+base/);
  });

  it('says so when the run has no such scenario', async () => {
    const rendered = open('no_such_scenario');
    expect(await waitForFrame(rendered, (text) => text.includes('No result of scenario no_such_scenario in run run-b.'))).toMatch(/q\s+quit/);
  });
});
