import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '@parley/store';
import { KEYS, press, renderApp, waitForFrame } from '../test-support/render-screen.js';
import { counts, createTriageStore, overflow, type TriageStore } from '../triage/test-support/triage-store.js';
import { RUNS_PAGE } from './runs-screen.js';

describe('RunsScreen', () => {
  let history: TriageStore;
  beforeEach(() => {
    history = createTriageStore();
  });
  afterEach(() => history.remove());

  it('lists runs newest first with status, counts, cost, duration and mode, within 80×24', async () => {
    const rendered = renderApp({ screen: 'runs' }, { services: { storePath: history.storePath } });
    const frame = await waitForFrame(rendered, (text) => text.includes('run-b'));
    const lines = frame.split('\n');
    expect(lines.find((line) => line.includes('started'))).toMatch(/started\s+suite\s+status\s+pass\s+fail\s+err\s+flk\s+wrn\s+skp\s+cost\s+mode$/);
    const newest = lines.findIndex((line) => line.includes('11-26 12:00'));
    const older = lines.findIndex((line) => line.includes('11-25 09:00'));
    expect(newest).toBeGreaterThan(0);
    expect(older).toBe(newest + 1);
    expect(lines[newest]).toMatch(/^> 11-26 12:00 ratiba\s+fail\s+1\s+2\s+1\s+1\s+1\s+1\s+\$0\.36 live$/);
    expect(lines[older]).toMatch(/^ {2}11-25 09:00 ratiba\s+pass\s+1\s+·\s+·\s+·\s+·\s+·\s+\$0\.0020 replay$/);
    expect(frame).toContain('run run-b · suite ratiba · 2026-11-26 12:00 UTC · took 1 m 03 s · git abc1234');
    expect(frame).toMatch(/Enter\s+open run/);
    expect(frame).toMatch(/q\s+quit/);
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
  });

  it('says a run of part of the suite is partial, with the selection it ran', async () => {
    const store = openStore(history.storePath);
    store.createRun({ id: 'run-p', suite: 'ratiba', mode: 'replay', started_at: '2026-11-27T08:00:00.000Z', parley_version: '0.1.0', options: { scenario: ['spa_*'] }, out_dir: '.' });
    store.finishRun('run-p', { status: 'pass', exit_code: 0, finished_at: '2026-11-27T08:00:02.000Z', duration_ms: 2000, cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 }, counts: counts({ pass: 6 }), git_sha: null });
    store.close();
    const rendered = renderApp({ screen: 'runs' }, { services: { storePath: history.storePath } });
    let frame = await waitForFrame(rendered, (text) => text.includes('run-p'));
    expect(frame).toContain('run run-p · partial: --scenario spa_* · suite ratiba');
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
    await press(rendered, KEYS.down);
    frame = await waitForFrame(rendered, (text) => text.includes('run run-b'));
    expect(frame).not.toContain('partial');
  });

  it('has a suite column from the rows already read: cut to fit 80 columns, with the duration back when the terminal is wide', async () => {
    const store = openStore(history.storePath);
    store.createRun({ id: 'run-m', suite: 'municipal_service_desk_za', mode: 'replay', started_at: '2026-11-27T08:00:00.000Z', parley_version: '0.1.0', options: {}, out_dir: '.' });
    store.finishRun('run-m', { status: 'pass', exit_code: 0, finished_at: '2026-11-27T08:00:02.000Z', duration_ms: 2000, cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 }, counts: counts({ pass: 3 }), git_sha: null });
    store.close();
    const narrow = await waitForFrame(renderApp({ screen: 'runs' }, { services: { storePath: history.storePath } }), (text) => text.includes('run-m'));
    expect(narrow).toMatch(/^> 11-27 08:00 municipal_se… pass\s+3\s/m);
    expect(narrow).toMatch(/^ {2}11-26 12:00 ratiba\s+fail\s/m);
    expect(narrow).toContain('suite municipal_service_desk_za');
    expect(narrow).toContain('took 2.0 s'); // the details wrap rather than lose their end
    expect(overflow(narrow)).toEqual({ wide: [], rows: 0 });
    const wide = await waitForFrame(renderApp({ screen: 'runs' }, { services: { storePath: history.storePath }, size: { columns: 120, rows: 30 } }), (text) => text.includes('run-m'));
    expect(wide).toMatch(/started\s+suite\s+status\s+pass\s+fail\s+err\s+flk\s+wrn\s+skp\s+cost\s+duration\s+mode$/m);
    expect(wide).toMatch(/^> 11-27 08:00 municipal_service_d… pass\s+3\s+·\s+·\s+·\s+·\s+·\s+\$0\.00\s+2\.0 s replay$/m);
  });

  it('shows a run stopped by Ctrl-C or SIGTERM as interrupted, in the list and in its header, whatever status it was stored with', async () => {
    const store = openStore(history.storePath);
    try {
      for (const [id, exitCode, hour] of [['run-int', 130, '13'], ['run-term', 143, '14']] as const) {
        store.createRun({ id, suite: 'ratiba', mode: 'replay', started_at: `2026-11-26T${hour}:00:00.000Z`, parley_version: '0.1.0', options: {}, out_dir: `.parley/runs/${id}` });
        store.finishRun(id, { status: 'pass', exit_code: exitCode, finished_at: `2026-11-26T${hour}:00:01.000Z`, duration_ms: 1_000, cost: { usd: 0, input_tokens: 0, output_tokens: 0, calls: 0 }, counts: counts({ pass: 1 }) });
      }
    } finally {
      store.close();
    }
    const rendered = renderApp({ screen: 'runs' }, { services: { storePath: history.storePath } });
    const frame = await waitForFrame(rendered, (text) => text.includes('run run-term'));
    expect(frame).toMatch(/^> 11-26 14:00 ratiba\s+interrupted\s+1\s/m);
    expect(frame).toMatch(/^ {2}11-26 13:00 ratiba\s+interrupted\s+1\s/m);
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
    await press(rendered, KEYS.enter);
    const header = await waitForFrame(rendered, (text) => /^Run\s/.test(text));
    expect(header).toMatch(/^interrupted · run-term · replay/m);
  });

  it('/ filters the runs by what is typed (status:NAME for a column); Enter keeps the filter, Esc clears it, a second Esc goes back', async () => {
    const rendered = renderApp({ screen: 'index' }, { services: { storePath: history.storePath } });
    await waitForFrame(rendered, (text) => text.startsWith('Agents'));
    await press(rendered, 'r');
    await waitForFrame(rendered, (text) => text.includes('run run-b'));
    await press(rendered, '/', ...'status:pass');
    let frame = await waitForFrame(rendered, (text) => text.includes('filter> status:pass'));
    expect(frame).toMatch(/Enter\s+keep filter/);
    expect(frame).not.toContain('11-26 12:00');
    expect(frame).toMatch(/^> 11-25 09:00 ratiba\s+pass/m);
    // Keys typed into the filter do not move the list or go back.
    await press(rendered, KEYS.enter, 'G');
    frame = await waitForFrame(rendered, (text) => text.includes('(1 match)'));
    expect(frame).toContain('1/1 runs (filtered)');
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
    await press(rendered, KEYS.escape);
    frame = await waitForFrame(rendered, (text) => !text.includes('filter>'));
    expect(frame).toContain('11-26 12:00');
    await press(rendered, '/', ...'nothing-like-this', KEYS.enter);
    await waitForFrame(rendered, (text) => text.includes('No run matches the filter'));
    await press(rendered, KEYS.escape, KEYS.escape);
    await waitForFrame(rendered, (text) => text.startsWith('Agents'));
  });

  it('keeps the filter when Enter arrives in the same read as the text (a paste ending in a newline, one tmux send-keys)', async () => {
    const rendered = renderApp({ screen: 'index' }, { services: { storePath: history.storePath } });
    await waitForFrame(rendered, (text) => text.startsWith('Agents'));
    await press(rendered, 'r');
    await waitForFrame(rendered, (text) => text.includes('run run-b'));
    await press(rendered, '/');
    await waitForFrame(rendered, (text) => text.includes('filter>'));
    rendered.stdin.write('status:pass\r');
    let frame = await waitForFrame(rendered, (text) => text.includes('(1 match)'));
    expect(frame).toContain('filter> status:pass  (1 match)');
    expect(frame).toContain('1/1 runs (filtered)');
    expect(frame).not.toMatch(/Enter\s+keep filter/);
    expect(frame).toMatch(/Esc\s+clear filter/);
    await press(rendered, KEYS.escape);
    await waitForFrame(rendered, (text) => !text.includes('filter>'));
    // `/`, the text and Enter in one read; the key after Enter goes to the list, which opens the run.
    rendered.stdin.write('/status:pass\r\r');
    frame = await waitForFrame(rendered, (text) => text.includes('Enter  open scenario'));
    expect(frame).toMatch(/^Run /m);
  });

  it('g and G go to the first and the last run', async () => {
    const rendered = renderApp({ screen: 'runs' }, { services: { storePath: history.storePath } });
    await waitForFrame(rendered, (text) => text.includes('run run-b'));
    await press(rendered, 'G');
    expect(await waitForFrame(rendered, (text) => text.includes('run run-a'))).toMatch(/^> 11-25 09:00/m);
    await press(rendered, 'g');
    expect(await waitForFrame(rendered, (text) => text.includes('run run-b'))).toMatch(/^> 11-26 12:00/m);
  });

  it('moves with ↓ and opens the selected run with Enter', async () => {
    const rendered = renderApp({ screen: 'runs' }, { services: { storePath: history.storePath } });
    await waitForFrame(rendered, (text) => text.includes('run run-b'));
    await press(rendered, KEYS.down);
    const moved = await waitForFrame(rendered, (text) => text.includes('run run-a'));
    expect(moved).toMatch(/^> 11-25 09:00 ratiba\s+pass/m);
    await press(rendered, KEYS.enter);
    const opened = await waitForFrame(rendered, (text) => text.includes('support_only'));
    expect(opened).toContain('run-a');
    expect(opened).not.toContain('b_missing_booking_number');
  });

  it('hands a second quick Enter to the run it opened: run, then its first scenario, each opened once', async () => {
    const rendered = renderApp({ screen: 'runs' }, { services: { storePath: history.storePath } });
    await waitForFrame(rendered, (text) => text.includes('run run-b'));
    // Two key presses before React has drawn the next screen.
    rendered.stdin.write(KEYS.enter);
    rendered.stdin.write(KEYS.enter);
    expect(await waitForFrame(rendered, (text) => /^Scenario /.test(text))).toContain('run run-b');
    await press(rendered, KEYS.escape);
    expect(await waitForFrame(rendered, (text) => /^Run\s/.test(text))).toContain('b_missing_booking_number');
    await press(rendered, KEYS.escape);
    expect(await waitForFrame(rendered, (text) => text.includes('run run-b'))).toMatch(/^Runs\s/);
  });

  it("for one agent lists only the runs with its scenarios, with that agent's counts", async () => {
    const booking = renderApp({ screen: 'runs', agent: 'booking' }, { services: { storePath: history.storePath } });
    const frame = await waitForFrame(booking, (text) => text.includes('run run-b'));
    expect(frame).toContain('Runs of booking');
    expect(frame).not.toContain('11-25 09:00');
    // run-b holds 6 booking scenarios: 1 pass, 1 fail (the other failure is support's), 1 error, 1 flaky, 1 warn, 1 skipped.
    expect(frame).toMatch(/^> 11-26 12:00 ratiba\s+fail\s+1\s+1\s+1\s+1\s+1\s+1\s+\$0\.36/m);
    expect(frame).toContain("6 of the run's 7 scenarios are booking's");

    const support = renderApp({ screen: 'runs', agent: 'support' }, { services: { storePath: history.storePath } });
    const supportFrame = await waitForFrame(support, (text) => text.includes('run run-b'));
    expect(supportFrame).toMatch(/^> 11-26 12:00 ratiba\s+fail\s+·\s+1\s+·\s+·\s+·\s+·/m);
    expect(supportFrame).toMatch(/^ {2}11-25 09:00 ratiba\s+pass\s+1\s+·/m);
  });

  it("for one agent keeps the selected run's details whole (suite, time, duration) above the agent's line, within 80×24", async () => {
    const store = openStore(history.storePath);
    const results = store.getScenarioResults('run-b').filter((result) => result.agent === 'booking');
    for (let index = 0; index < 30; index += 1) {
      // Run ids as parley makes them: the details of a partial run take two lines at 80 columns.
      const id = `20261127-2344${String(index).padStart(2, '0')}-edd039`;
      const started = `2026-11-27T23:44:${String(index).padStart(2, '0')}.000Z`;
      store.createRun({ id, suite: 'ratiba_booking', mode: 'replay', started_at: started, parley_version: '0.1.0', options: { scenario: ['spa_reschedule_sw'] }, out_dir: '.' });
      store.saveScenarioResults(id, results);
      store.finishRun(id, { status: 'fail', exit_code: 1, finished_at: started, duration_ms: 522, cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 }, counts: counts({ pass: 6 }), git_sha: null });
    }
    store.close();
    const rendered = renderApp({ screen: 'runs', agent: 'booking' }, { services: { storePath: history.storePath } });
    const frame = await waitForFrame(rendered, (text) => text.includes('run 20261127-234429-edd039'));
    const lines = frame.split('\n');
    const details = lines.findIndex((line) => line.startsWith('run 20261127-234429-edd039'));
    expect(`${lines[details]} ${lines[details + 1]}`).toBe('run 20261127-234429-edd039 · partial: --scenario spa_reschedule_sw · suite ratiba_booking · 2026-11-27 23:44 UTC · took 522 ms');
    expect(lines[details + 2]).toBe("6 of the run's 6 scenarios are booking's");
    expect(overflow(frame)).toEqual({ wide: [], rows: 0 });
  });

  it('says how to make a run when nothing was run here, without creating the store', async () => {
    const storePath = join(history.folder, 'elsewhere', '.parley', 'parley.db');
    const rendered = renderApp({ screen: 'runs' }, { services: { storePath } });
    const frame = await waitForFrame(rendered, (text) => text.includes('No runs stored yet'));
    expect(frame).toContain('parley run');
    expect(frame).not.toMatch(/Enter\s+open run/);
    expect(existsSync(storePath)).toBe(false);

    const agent = renderApp({ screen: 'runs', agent: 'nobody' }, { services: { storePath: history.storePath } });
    const agentFrame = await waitForFrame(agent, (text) => text.includes('No stored run has scenarios of nobody yet'));
    // One paragraph wrapped to the width: the run command names the agent, and no line ends mid-sentence at a semicolon.
    expect(agentFrame.replace(/\s+/g, ' ')).toContain('Make one with `parley run --agent nobody` in the suite folder. Every run is kept in .parley/parley.db and listed here.');
    expect(frame.replace(/\s+/g, ' ')).toContain('Make one with `parley run` in the suite folder (it replays the recordings: no keys needed). Every run is kept');
    expect(frame).not.toMatch(/;\n/);
  });

  it('shows a run that never finished as unfinished, without counts', async () => {
    const store = openStore(history.storePath);
    store.createRun({ id: 'run-c', suite: 'ratiba', mode: 'record', started_at: '2026-11-26T13:00:00.000Z', parley_version: '0.1.0', options: {}, out_dir: '.' });
    store.close();
    const frame = await waitForFrame(renderApp({ screen: 'runs' }, { services: { storePath: history.storePath } }), (text) => text.includes('run run-c'));
    expect(frame).toMatch(/^> 11-26 13:00 ratiba\s+unfinished\s+-\s+-\s+-\s+-\s+-\s+-\s+-\s+record$/m);
  });

  it('reads one page of a long history and the next one when the cursor nears its end', async () => {
    const store = openStore(history.storePath);
    const total = RUNS_PAGE + 30;
    for (let index = 0; index < total; index += 1) {
      const id = `bulk-${String(index).padStart(4, '0')}`;
      const minute = String(index % 60).padStart(2, '0');
      const hour = String(Math.floor(index / 60)).padStart(2, '0');
      store.createRun({ id, suite: 'ratiba', mode: 'replay', started_at: `2026-11-27T${hour}:${minute}:00.000Z`, parley_version: '0.1.0', options: {}, out_dir: '.' });
      store.finishRun(id, { status: 'pass', exit_code: 0, finished_at: `2026-11-27T${hour}:${minute}:01.000Z`, duration_ms: 1_000, cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 }, counts: counts() });
    }
    store.close();
    const rendered = renderApp({ screen: 'runs' }, { services: { storePath: history.storePath } });
    const first = await waitForFrame(rendered, (text) => text.includes('run bulk-0229'));
    expect(first).toContain(`1/${RUNS_PAGE}+ runs`);
    await press(rendered, '\u001B[F'); // End
    const paged = await waitForFrame(rendered, (text) => text.includes(`/${2 * RUNS_PAGE}`) || text.includes(`/${total + 2} runs`));
    expect(paged).toMatch(new RegExp(`${RUNS_PAGE}/(${2 * RUNS_PAGE}\\+|${total + 2}) runs`));
    await press(rendered, '\u001B[F');
    const last = await waitForFrame(rendered, (text) => text.includes(`${total + 2}/${total + 2} runs`));
    expect(last).toContain('run run-a');
    expect(overflow(last)).toEqual({ wide: [], rows: 0 });
  });
});
