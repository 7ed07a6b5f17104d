import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '@parley/store';
import { KEYS, press, renderApp, waitForFrame } from '../test-support/render-screen.js';
import { createTriageStore, overflow, SECRET, type TriageStore } from '../triage/test-support/triage-store.js';

describe('RunScreen', () => {
  let history: TriageStore;
  beforeEach(() => {
    history = createTriageStore();
  });
  afterEach(() => history.remove());

  const open = (runId = 'run-b') => renderApp({ screen: 'run', runId }, { services: { storePath: history.storePath } });

  it('lists failing and erroring scenarios first, then flaky, then warnings, then the rest', async () => {
    const frame = await waitForFrame(open(), (text) => text.includes('g_skipped'));
    const order = ['c_recording_miss', 'b_missing_booking_number', 'f_private', 'd_sometimes', 'e_no_baseline', 'a_happy', 'g_skipped'];
    const rows = order.map((id) => frame.split('\n').findIndex((line) => line.includes(` ${id} `)));
    expect(rows.every((row) => row > 0)).toBe(true);
    expect([...rows].sort((left, right) => left - right)).toEqual(rows);
    expect(frame).toMatch(/^> error\s+c_recording_miss\s+booking\s+recording miss at turn 2/m);
    expect(frame).toMatch(/^ {2}fail\s+b_missing_booking_number\s+booking\s+content_signals: required "BK-/m);
    expect(frame).toMatch(/^ {2}flaky\s+d_sometimes\s+booking\s+2 of 3 attempts passed$/m);
    expect(frame).toMatch(/^ {2}warn\s+e_no_baseline\s+booking\s+tool_correctness: no baseline/m);
    expect(frame).toMatch(/^ {2}pass\s+a_happy\s+booking\s+3 expectations passed$/m);
    expect(frame).toContain('fail · run-b · live · 2026-11-26 12:00 · 1 m 03 s · $0.36');
    expect(frame).toContain('c_recording_miss · blocking: recording miss at turn 2 (agent)');
    expect(frame).toMatch(/Enter\s+open scenario/);
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
  });

  it('/ filters the scenarios: failures only, an agent, a tag, or an id to jump to; Esc clears the filter', async () => {
    const store = openStore(history.storePath);
    const happy = store.getScenarioResults('run-b').find((result) => result.scenario_id === 'a_happy')!;
    store.saveScenarioResult('run-b', { ...happy, scenario_id: 'h_tagged', tags: ['payments'] });
    store.close();
    const rendered = open();
    await waitForFrame(rendered, (text) => text.includes('g_skipped'));
    await press(rendered, '/', ...'failing', KEYS.enter);
    let frame = await waitForFrame(rendered, (text) => text.includes('(filtered)'));
    expect(frame).toContain('filter> failing  (3 matches)');
    expect(frame).toMatch(/^> error\s+c_recording_miss/m);
    expect(frame).toMatch(/^ {2}fail\s+b_missing_booking_number/m);
    expect(frame).toMatch(/^ {2}fail\s+f_private/m);
    expect(frame).not.toContain('a_happy');
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });

    await press(rendered, KEYS.escape);
    await waitForFrame(rendered, (text) => text.includes('g_skipped') && !text.includes('filter>'));
    await press(rendered, '/', ...'agent:support', KEYS.enter);
    frame = await waitForFrame(rendered, (text) => text.includes('(1 match)'));
    expect(frame).toMatch(/^> fail\s+f_private\s+support/m);

    await press(rendered, KEYS.escape, '/', ...'tag:pay', KEYS.enter);
    expect(await waitForFrame(rendered, (text) => text.includes('filter> tag:pay  (1 match)'))).toMatch(/^> pass\s+h_tagged/m);

    // Part of an id, Enter keeps it, Enter again opens that scenario.
    await press(rendered, KEYS.escape, '/', ...'d_some', KEYS.enter, KEYS.enter);
    await waitForFrame(rendered, (text) => text.startsWith('Scenario d_sometimes'));
    // Back on the run, the filter and the cursor are as they were; Esc clears the filter.
    await press(rendered, KEYS.escape);
    expect(await waitForFrame(rendered, (text) => text.includes('filter> d_some'))).toMatch(/^> flaky\s+d_sometimes/m);
    await press(rendered, KEYS.escape);
    await waitForFrame(rendered, (text) => text.startsWith('Run ') && text.includes('g_skipped') && !text.includes('filter>'));
  });

  it('d or a on a run says where they work: not on a replay run (it records nothing), on a scenario of a live run', async () => {
    let rendered = open('run-a');
    await waitForFrame(rendered, (text) => text.includes('Enter  open scenario'));
    await press(rendered, 'd');
    let frame = await waitForFrame(rendered, (text) => text.includes('no re-recording: a replay run records nothing'));
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
    // Any other key puts the selected scenario's reason back.
    await press(rendered, KEYS.down);
    await waitForFrame(rendered, (text) => !text.includes('no re-recording'));
    rendered.unmount();
    rendered = open();
    await waitForFrame(rendered, (text) => text.includes('g_skipped'));
    await press(rendered, 'd');
    frame = await waitForFrame(rendered, (text) => text.includes('d shows the diff of one scenario: Enter opens c_recording_miss, then d'));
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
  });

  it('uses a wide terminal for long scenario ids: whole at 200 columns, cut at 80', async () => {
    const longId = 'spa_booking_codeswitch_with_a_very_long_descriptive_scenario_name';
    const store = openStore(history.storePath);
    const happy = store.getScenarioResults('run-b').find((result) => result.scenario_id === 'a_happy')!;
    store.saveScenarioResult('run-b', { ...happy, scenario_id: longId });
    store.close();
    const wide = renderApp({ screen: 'run', runId: 'run-b' }, { services: { storePath: history.storePath }, size: { columns: 200, rows: 50 } });
    const frame = await waitForFrame(wide, (text) => text.includes('g_skipped'));
    expect(frame).toMatch(new RegExp(`pass\\s+${longId}\\s+booking\\s+3 expectations passed`));
    wide.unmount();
    const narrow = await waitForFrame(open(), (text) => text.includes('g_skipped'));
    expect(narrow).toContain('spa_booking_codeswitch_wit… booking');
    expect(overflow(narrow)).toEqual({ wide: [], rows: 0 });
  });

  it('never shows the reason of a metadata_only scenario', async () => {
    const rendered = open();
    await waitForFrame(rendered, (text) => text.includes('g_skipped'));
    await press(rendered, KEYS.down, KEYS.down);
    const frame = await waitForFrame(rendered, (text) => text.includes('f_private · blocking'));
    expect(frame).toMatch(/^> fail\s+f_private\s+support\s+conversation_judge: \[metadata_/m);
    expect(frame).toContain('f_private · blocking: conversation_judge: [metadata_only: content withheld]');
    expect(frame).not.toContain(SECRET);
  });

  it('opens the selected scenario with Enter and comes back with Esc', async () => {
    const rendered = open();
    await waitForFrame(rendered, (text) => text.includes('g_skipped'));
    await press(rendered, KEYS.down);
    await waitForFrame(rendered, (text) => text.includes('b_missing_booking_number · blocking'));
    await press(rendered, KEYS.enter);
    const scenario = await waitForFrame(rendered, (text) => text.includes('Scenario b_missing_booking_number'));
    expect(scenario).toMatch(/^content_signals\s+-\s+-\s+-\s+-\s+-\s+FAIL$/m);
    await press(rendered, KEYS.escape);
    expect(await waitForFrame(rendered, (text) => text.includes('g_skipped'))).toMatch(/^> fail\s+b_missing_booking_number/m);
  });

  it('opens a scenario once however quickly Enter is typed', async () => {
    const rendered = open();
    await waitForFrame(rendered, (text) => text.includes('g_skipped'));
    rendered.stdin.write(KEYS.enter);
    rendered.stdin.write(KEYS.enter);
    await waitForFrame(rendered, (text) => text.includes('Scenario c_recording_miss'));
    await press(rendered, KEYS.escape);
    expect(await waitForFrame(rendered, (text) => text.includes('g_skipped'))).toMatch(/^Run\s/);
  });

  it('shows scenarios marked flaky, advisory gates, and an unknown run', async () => {
    const store = openStore(history.storePath);
    store.markFlaky({ suite: 'ratiba', scenario_id: 'a_happy', run_id: 'run-b', marked_at: '2026-11-26T13:00:00.000Z', note: '' });
    const [happy] = store.getScenarioResults('run-b').filter((result) => result.scenario_id === 'a_happy');
    store.saveScenarioResult('run-b', { ...happy!, gate: 'advisory' });
    store.close();
    const frame = await waitForFrame(open(), (text) => text.includes('a_happy'));
    expect(frame).toMatch(/^ {2}pass adv\s+a_happy\s+booking\s+\[marked flaky\] 3 expectations…$/m);

    const unknown = await waitForFrame(open('run-zzz'), (text) => text.includes('No run run-zzz'));
    expect(unknown).not.toMatch(/Enter\s+open scenario/);
  });
});
